// The 13x13 hand grid, drawn from the server's cells (``/api/range/format``: class names,
// weights, live and blocked combos); a drag collects the painted classes and hands them to
// ``onPaint`` (the server writes the range). The grid itself counts nothing.

import { el, SUIT_SYMBOL, count } from './util.js';

export class Grid {
  // ``cells``: the server's 169 cells (grid order); ``onPaint(names, weight)`` after a click or
  // a dragged block when editable; ``picking()`` true: a click asks ``onPick(name)`` instead.
  constructor(root, cells, { editable = false, brush = () => 1, onPaint = null, picking = () => false,
    onPick = null, onClick = null } = {}) {
    Object.assign(this, { root, brush, onPaint, picking, onPick, onClick });
    this.cells = new Map(); this.data = new Map(); this.pos = new Map();
    root.classList.toggle('editable', editable);
    root.replaceChildren();
    for (const c of cells) {
      const kind = c.row === c.col ? 'pair' : c.row < c.col ? 'suited' : 'offsuit';
      const cell = el('div', { class: `cell ${kind}`, dataset: { cls: c.class, row: c.row, col: c.col } },
        el('span', { text: c.class }), el('b', { class: 'sub' }));
      this.cells.set(c.class, cell); this.pos.set(`${c.row},${c.col}`, c.class);
      root.append(cell);
    }
    if (editable) this.enableDrag();
    else if (onClick) root.addEventListener('click', (e) => { const c = e.target.closest('.cell'); if (c) onClick(c.dataset.cls); });
  }

  enableDrag() {
    let start = null; let value = 0; let painted = new Set();
    const cellAt = (e) => e.target.closest && e.target.closest('.cell');
    const paint = (cell) => {
      const [r0, c0] = start; const r1 = +cell.dataset.row; const c1 = +cell.dataset.col;
      painted = new Set();
      for (let r = Math.min(r0, r1); r <= Math.max(r0, r1); r += 1) {
        for (let c = Math.min(c0, c1); c <= Math.max(c0, c1); c += 1) painted.add(this.pos.get(`${r},${c}`));
      }
      // a preview of the drag until the server's answer redraws the grid
      for (const [name, node] of this.cells) node.classList.toggle('painting', painted.has(name));
      this.root.style.setProperty('--paint', value);
    };
    this.root.addEventListener('mousedown', (e) => {
      const cell = cellAt(e); if (!cell) return;
      e.preventDefault();
      if (this.picking()) { if (this.onPick) this.onPick(cell.dataset.cls); return; }
      start = [+cell.dataset.row, +cell.dataset.col];
      const d = this.data.get(cell.dataset.cls);
      const b = this.brush();
      value = d && !d.mixed && d.combos && d.weight === b ? 0 : b;  // a painted hand erases
      paint(cell);
    });
    this.root.addEventListener('mouseover', (e) => { const cell = cellAt(e); if (start && cell) paint(cell); });
    window.addEventListener('mouseup', () => {
      if (!start) return;
      start = null;
      if (this.onPaint) this.onPaint([...painted], value);
    });
  }

  // Draw the server's cells (an empty list: nothing in the range).
  set(cells) {
    this.data = new Map((cells || []).map((c) => [c.class, c]));
    for (const [name, node] of this.cells) {
      const c = this.data.get(name) || { fill: 0, live_fill: 0, combos: 0, live: 0, blocked: 0, size: 0 };
      node.classList.remove('painting');
      node.style.setProperty('--w', c.fill);
      node.style.setProperty('--lw', c.live_fill);
      node.classList.toggle('on', c.fill > 0);
      node.classList.toggle('part', c.fill > 0 && c.fill < 1);
      node.classList.toggle('blocked', c.blocked > 0);
      node.dataset.weight = String(c.fill);
      node.dataset.live = String(c.live);
      node.dataset.blocked = String(c.blocked);
      node.querySelector('.sub').textContent = c.fill > 0 && c.fill < 1 ? `${Math.round(100 * c.fill)}%` : '';
      node.title = c.combos ? `${name}: ${c.combos} of ${count(c.size, 'combo')} in the range, ${c.live} live`
        + `${c.blocked ? `, ${c.blocked} blocked by the board or dead cards` : ''}` : name;
    }
  }

  highlight(classes) {
    for (const [name, cell] of this.cells) cell.classList.toggle('hl', classes.has(name));
  }
}

// The 52-card picker: clicking a card toggles it in the list ``target()`` names ("board" or
// "dead"); ``deck`` (the server's rows of card texts) and the lists are the server's card texts.
export class Picker {
  constructor(root, { deck, lists, target, onChange }) {
    Object.assign(this, { lists, target, onChange }); this.cards = new Map();
    for (const cards of deck) {
      const row = el('div', { class: 'pickrow' });
      for (const card of cards) {
        const [r, s] = card;  // drawn as written: rank face, suit symbol
        const b = el('button', { class: `pick suit-${s}`, dataset: { card }, title: card, type: 'button',
          onclick: () => this.toggle(card) }, r === 'T' ? '10' : r, el('small', { text: SUIT_SYMBOL[s] }));
        this.cards.set(card, b);
        row.append(b);
      }
      root.append(row);
    }
  }

  toggle(card) {
    const lists = this.lists(); const list = lists[this.target()];
    const i = list.indexOf(card);
    if (i >= 0) list.splice(i, 1);
    else if (Object.values(lists).some((l) => l.includes(card))) return;
    else list.push(card);
    this.onChange(lists);
  }

  render() {
    const lists = this.lists();
    for (const [card, b] of this.cards) {
      b.classList.toggle('in-board', (lists.board || []).includes(card));
      b.classList.toggle('in-dead', (lists.dead || []).includes(card));
    }
  }
}
