// The equity distribution curve: each combo's equity (the server's breakdown), strongest first,
// its width the combo's weight; axes with ticks in % on both sides.

const NS = 'http://www.w3.org/2000/svg';
const W = 400; const H = 200;
const TICKS = [0, 0.25, 0.5, 0.75, 1];

function svgEl(tag, attrs) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

export function drawCurve(svg, combos) {
  const sorted = [...combos].sort((a, b) => b.equity - a.equity);
  const total = sorted.reduce((s, c) => s + c.weight, 0);
  let x = 0; const pts = [];
  for (const c of sorted) {
    const y = (H * (1 - c.equity)).toFixed(1);
    pts.push(`${(W * x / total).toFixed(1)},${y}`);
    x += c.weight;
    pts.push(`${(W * x / total).toFixed(1)},${y}`);
  }
  svg.replaceChildren();
  for (const t of TICKS) {
    svg.append(svgEl('line', { x1: 0, x2: W, y1: H * t, y2: H * t, class: 'gridline' }));
    svg.append(svgEl('line', { x1: W * t, x2: W * t, y1: 0, y2: H, class: 'gridline' }));
  }
  svg.append(svgEl('polyline', { points: pts.join(' '), class: 'curveline' }));
}
