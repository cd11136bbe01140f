// The Video-poker view: find a game, its pay table (editable: an edit is a new *version* of the
// game, solved as a background job), the strategy chart, break-even and compare. Everything
// that depends on the pays waits for the version's solve and is labelled with the version it
// used; an answer whose game name is not the version's is refused, never shown.

import { $, el, pct, debounce, count } from './util.js';
import { api, act, ApiError } from './api.js';
import { initTrainer, versionChanged } from './trainer.js';

const JOB_POLL_MS = 300;
export const DEFAULT_GAME = 'jacks-or-better-9-6';

// A version: {id, slug, pay, name, state ('solving' | 'ready' | 'error'), analysis, ready}
export const vp = { slug: DEFAULT_GAME, versions: new Map(), current: null, base: null, loaded: false };

const versionId = (slug, pay) => `${slug}|${pay.join(';')}`;

function newVersion(slug, pay) {
  const id = versionId(slug, pay);
  if (vp.versions.has(id) && vp.versions.get(id).state !== 'error') return vp.versions.get(id);
  const v = { id, slug, pay: [...pay], name: '', state: 'solving', analysis: null, progress: 0 };
  v.ready = (async () => {
    try {
      const a = pay.length ? await solveJob(v) : await api('vp/analyze', { paytable: slug });
      Object.assign(v, { analysis: a, name: a.name, state: 'ready' });
      return v;
    } catch (e) { v.state = 'error'; v.error = e.message; throw e; }
  })();
  vp.versions.set(id, v);
  return v;
}

// The answer belongs to the version (its game's name), or it is an error, never shown.
export function check(v, answer) {
  if (answer.name !== v.name) throw new ApiError(`an answer for ${answer.name} arrived for ${v.name}: not shown`);
  return answer;
}

// Wait for the current version's solve; ``what`` says who waits (shown while it does).
export async function ready(what) {
  const v = vp.current;
  if (v.state !== 'ready') $('vp-wait').textContent = `${what} waits for the edited game's solve…`;
  try { await v.ready; } finally { $('vp-wait').textContent = ''; }
  return v;
}

async function solveJob(v) {
  const { id } = await api('jobs', { kind: 'vp/analyze', body: { paytable: v.slug, pay: v.pay } });
  const box = $('vp-progress'); const bar = box.querySelector('.bar'); const text = box.querySelector('.ptext');
  box.hidden = false; box.dataset.state = 'running';
  try {
    for (;;) {
      const j = await api(`jobs/${encodeURIComponent(id)}`);
      box.classList.toggle('indeterminate', j.state !== 'done' && !j.progress);
      bar.style.width = `${(100 * j.progress).toFixed(1)}%`;
      text.textContent = j.progress ? `${j.text} ${(100 * j.progress).toFixed(0)}%`
        : `${j.state === 'waiting' ? 'waiting' : 'solving the edited game exactly'}… ${(j.seconds || 0).toFixed(1)} s`;
      if (j.state === 'done') return j.result;
      if (j.state === 'error') throw new ApiError(j.error);
      await new Promise((r) => setTimeout(r, JOB_POLL_MS));
    }
  } finally { box.dataset.state = 'done'; box.hidden = true; }
}

function oneIn(p) { const n = 1 / p; return n < 100 ? n.toFixed(2) : Math.round(n).toLocaleString('en'); }

// The pay table on screen is the current version's (its edits while it solves).
function renderPays() {
  const v = vp.current; const base = vp.base.analysis;
  const lines = v.analysis ? v.analysis.lines : base.lines;
  const edited = new Map(v.pay.map((e) => { const i = e.lastIndexOf('='); return [e.slice(0, i), e.slice(i + 1)]; }));
  const body = $('vp-pays'); body.replaceChildren();
  for (const ln of lines) {
    const shown = edited.get(ln.hand) ?? String(ln.pays);
    const input = el('input', { class: 'pay', type: 'text', value: shown, 'aria-label': `pay of ${ln.hand}`, dataset: { hand: ln.hand } });
    input.addEventListener('input', payEdited);
    body.append(el('tr', {}, el('td', { text: ln.hand }), el('td', { class: 'num' }, input),
      el('td', { class: 'num fig', title: String(ln.probability), text: v.analysis ? (ln.probability ? `1 in ${oneIn(ln.probability)}` : 'never') : '…' }),
      el('td', { class: 'num fig', text: v.analysis ? pct(ln.return, 4) : '…' })));
  }
  payEdited();
  const a = v.analysis;
  $('vp-return').textContent = a ? `return ${pct(a.return, 4)} (${a.return_exact}) · variance ${a.variance.toFixed(2)}` : 'solving…';
  $('vp-return').dataset.returnExact = a ? a.return_exact : '';
  $('vp-game-return').textContent = a ? `optimal play returns ${pct(a.return, 4)}; hits ${pct(a.bankroll ? a.bankroll.hit_frequency : null, 2)} of hands` : '';
  $('vp-name').textContent = a ? a.name : `${base.name} (edited: ${v.pay.join(', ')}) — solving…`;
  $('vp-name').dataset.version = v.id; $('vp-name').dataset.state = v.state;
  $('vp-be-line').replaceChildren(...lines.map((ln) => el('option', { value: ln.hand, text: ln.hand })));
  $('vp-unedit').disabled = !v.pay.length;
}

function pendingEdits() {
  const out = [];
  const base = new Map(vp.base.analysis.lines.map((ln) => [ln.hand, String(ln.pays)]));
  for (const input of $('vp-pays').querySelectorAll('input.pay')) {
    if (base.get(input.dataset.hand) !== input.value.trim()) out.push(`${input.dataset.hand}=${input.value.trim()}`);
  }
  return out;
}

// An input typed: marked where it differs from the unedited game; while the pays on screen are
// not the current version's (an edit not solved yet), the frequencies and returns beside them
// are that version's, so they are struck through and the note says whose they are.
function payEdited() {
  const base = new Map(vp.base.analysis.lines.map((ln) => [ln.hand, String(ln.pays)]));
  for (const input of $('vp-pays').querySelectorAll('input.pay')) input.classList.toggle('edited', base.get(input.dataset.hand) !== input.value.trim());
  const unsolved = versionId(vp.slug, pendingEdits()) !== vp.current.id;
  $('vp-solve').disabled = !unsolved;
  const v = vp.current;
  $('vp-pays').closest('table').classList.toggle('stale', unsolved);
  $('vp-return').classList.toggle('stale', unsolved);
  $('vp-pays').dataset.stale = unsolved;
  $('vp-stale').hidden = !unsolved;
  $('vp-stale').textContent = unsolved ? `Frequencies and returns are still those of ${v.name || `${vp.base.analysis.name} (edited: ${v.pay.join(', ')})`}: `
    + 'Solve edited game for the pays typed.' : '';
}

// Make a version current: its pay table, and every result of another version cleared.
async function useVersion(v) {
  vp.current = v;
  clearResults();
  renderPays();
  versionChanged(v);
  try { await v.ready; } finally { if (vp.current === v) { renderPays(); versionChanged(v); } }
}

function clearResults() {
  for (const id of ['vp-chart', 'vp-short', 'vp-be', 'vp-cmp']) { $(id).replaceChildren(); }
  $('vp-chart').dataset.lines = ''; $('vp-print').disabled = true;
}

async function chooseGame(slug) {
  vp.slug = slug;
  vp.base = newVersion(slug, []);
  await vp.base.ready;
  await useVersion(vp.base);
}

async function solveEdited() {
  const v = newVersion(vp.slug, pendingEdits());
  $('vp-solve').disabled = true;
  await useVersion(v);
}

async function searchGames() {
  const q = $('vp-search').value.trim();
  const rows = await api(q ? `vp/games?q=${encodeURIComponent(q)}` : 'vp/games');
  const sel = $('vp-game');
  sel.replaceChildren(...rows.map((r) => el('option', { value: r.slug, text: r.name })));
  if (!rows.length) throw new ApiError(`no game matches "${q}"`);
  if (!rows.some((r) => r.slug === vp.slug)) { sel.value = rows[0].slug; await chooseGame(rows[0].slug); } else sel.value = vp.slug;
  return rows;
}

async function showChart() {
  const v = await ready('The chart');
  const a = check(v, await api('vp/chart', { paytable: v.slug, pay: v.pay }));
  if (vp.current !== v) return;
  const card = $('vp-chart');
  const pays = v.analysis.lines.filter((ln) => ln.pays).map((ln) => `${ln.hand} ${ln.pays}`).join(' · ');
  card.replaceChildren(
    el('h3', { text: `${a.name}: strategy` }),
    el('p', { class: 'chartnote pays', text: `Pays per coin: ${pays}` }),
    el('p', { class: 'chartnote', text: 'Hold the first line that fits the deal.' }),
    el('ol', { class: 'chartlines' }, ...a.lines.map((ln) => el('li', { dataset: { line: ln.line } }, ln.hold))),
    el('p', { class: 'chartnote', text: `Playing this chart returns ${pct(a.chart_return, 4)}; perfect play ${pct(a.optimal_return, 4)}; the chart costs ${pct(a.cost, 6)} of the money bet.` }),
    el('p', { class: 'chartnote small', text: `Ties: ${a.tie_rule}.` }),
  );
  card.dataset.chartReturnExact = a.chart_return_exact;
  card.dataset.lines = a.lines.length;
  card.dataset.version = v.id;
  $('vp-print').disabled = false;
}

// The short card: `vp chart --max-lines 12` beside the full one, each line in players' words
// with the solver's exact line under it, what the exact line loses against perfect play and what
// reading it as worded costs (the server's exact figures, in % of the money bet).
const SHORT_LINES = 12;
const signedPct = (x) => `${x > 0 ? '−' : x < 0 ? '+' : ''}${pct(Math.abs(x), 4)}`;
async function showShortChart() {
  const v = await ready('The short card');
  const [full, short] = await Promise.all([
    api('vp/chart', { paytable: v.slug, pay: v.pay }), api('vp/chart', { paytable: v.slug, pay: v.pay, max_lines: SHORT_LINES })]);
  check(v, full); check(v, short);
  if (vp.current !== v) return;
  const box = $('vp-short');
  const p = short.players;
  const row = (ln) => el('tr', { dataset: { line: ln.line, lossExact: ln.loss_exact, costExact: ln.players_cost_exact } },
    el('td', { class: 'num', text: String(ln.line) }),
    el('td', {}, el('span', { class: 'words', text: ln.players || `merged into line ${ln.merged_into}` }),
      el('div', { class: 'hold', text: ln.hold === ln.players ? '' : ln.hold })),  // the exact line, where it differs
    el('td', { class: 'num loss', text: ln.loss ? `−${pct(ln.loss, 3)}` : '0' }),
    el('td', { class: 'num cost', text: ln.players_cost ? signedPct(ln.players_cost) : '0' }));
  box.replaceChildren(
    el('h3', { text: `${short.name}: short card (${count(short.lines.length, 'line')})` }),
    el('p', { class: 'chartnote', text: 'Hold the first line that fits the deal. Each line in players\' words; under it, the solver\'s exact line where it says more.' }),
    el('table', { class: 'shortcard' },
      el('thead', {}, el('tr', {}, el('th', { text: '#' }), el('th', { text: 'hold' }),
        el('th', { class: 'num', text: 'lost', title: 'what the exact line loses against perfect play, in % of the money bet' }),
        el('th', { class: 'num', text: 'wording', title: 'what reading this line as worded (every hold of the kinds it names) costs, the other lines exact' }))),
      el('tbody', {}, ...short.lines.map(row))),
    el('p', { class: 'chartnote', text: `The exact short card returns ${pct(short.chart_return, 4)}: it costs ${pct(short.cost, 4)} of the money bet against perfect play, the ${full.lines.length}-line card ${pct(full.cost, 6)}.` }),
    p && el('p', { class: 'chartnote worded', text: `Played as worded it returns ${pct(p.return, 4)} (exact ${p.return_exact}): the players' words cost ${pct(p.vs_chart, 4)} more, ${pct(p.cost, 4)} in all.` }),
  );
  Object.assign(box.dataset, { lines: short.lines.length, costExact: short.cost_exact, fullCostExact: full.cost_exact, version: v.id,
    playersReturnExact: p ? p.return_exact : '', playersVsChartExact: p ? p.vs_chart_exact : '' });
}

async function breakEven() {
  const v = await ready('Break-even');
  const a = await api('vp/breakeven', { paytable: v.slug, line: $('vp-be-line').value, pay: v.pay });
  if (vp.current !== v) return;
  const box = $('vp-be');
  const ch = a.strategy_changes;
  box.replaceChildren(
    el('p', { class: 'method', text: `for ${v.name}` }),
    el('p', {}, `${a.line} pays ${a.paytable.pay} (return ${pct(a.paytable.return, 4)}). The game returns ${pct(a.target, 0)} from `,
      el('b', { class: 'bepay', text: a.break_even_exact }), ` (exact break-even ${a.exact_break_even || a.break_even_exact}), where it returns ${pct(a.at_break_even.return, 4)}.`),
    el('p', { text: `Meter at break-even: ${a.meters.map((m) => `$${m.paid.toLocaleString('en')} at $${m.bet} bet`).join(', ')}.` }),
    el('p', { text: `Strategy changes: ${count(ch.classes, 'class', null, 'classes')}, ${pct(ch.deal_fraction, 2)} of deals, worth ${pct(ch.return_gain, 4)}.` }),
    el('table', { class: 'changes' },
      el('tr', {}, el('th', { text: 'example deal' }), el('th', { text: 'was' }), el('th', { text: 'now' })),
      ...ch.top.map((c) => el('tr', {}, el('td', { text: c.example_deal }), el('td', { text: c.hold_before }), el('td', { text: c.hold_after })))),
  );
  box.dataset.breakEvenExact = a.break_even_exact;
}

// The games chosen beside the current version: an edited one is compared as edited (its
// column named so), after its solve.
async function compare() {
  const v = await ready('Compare');
  const chosen = [...$('vp-cmp-games').selectedOptions].map((o) => o.value);
  const games = v.pay.length ? [v.slug, ...chosen.filter((g) => g !== v.slug)] : (chosen.length ? chosen : [v.slug]);
  const a = await api('vp/compare', { paytables: games, pay: v.pay });
  if (vp.current !== v) return;
  if (v.pay.length && !a.games.some((g) => g.name === v.name)) throw new ApiError(`the comparison has no column for ${v.name}: not shown`);
  const rows = [
    ['return', (g) => pct(g.return, 4)], ['variance', (g) => g.variance.toFixed(2)],
    ['hit frequency', (g) => pct(g.hit_frequency, 2)], ['royal cycle', (g) => Math.round(g.royal_cycle).toLocaleString('en')],
    ['break-even royal', (g) => `${g.break_even_royal} (${count(g.break_even_royal_coins, 'coin')})`],
  ];
  $('vp-cmp').replaceChildren(
    el('tr', {}, el('th'), ...a.games.map((g) => el('th', { class: 'num', text: g.name }))),
    ...rows.map(([label, f]) => el('tr', {}, el('th', { text: label }), ...a.games.map((g) => el('td', { class: 'num', text: f(g), dataset: { slug: g.slug, returnExact: g.return_exact, edited: g.edited } })))),
  );
  $('vp-cmp').dataset.version = v.id;
}

export async function loadVp() {
  if (vp.loaded) return;
  vp.loaded = true;
  const rows = await api('vp/games');
  $('vp-game').replaceChildren(...rows.map((r) => el('option', { value: r.slug, text: r.name })));
  $('vp-cmp-games').replaceChildren(...rows.map((r) => el('option', { value: r.slug, text: r.name })));
  $('vp-game').value = vp.slug;
  await chooseGame(vp.slug);
}

export function initVp() {
  initTrainer();
  $('vp-search').addEventListener('input', debounce(() => act(searchGames, $('vp-search'))));
  $('vp-game').addEventListener('change', () => act(() => chooseGame($('vp-game').value), $('vp-game')));
  $('vp-solve').addEventListener('click', () => act(solveEdited, $('vp-solve')));
  $('vp-unedit').addEventListener('click', () => act(() => useVersion(vp.base), $('vp-unedit')));
  $('vp-chart-run').addEventListener('click', () => act(showChart, $('vp-chart-run')));
  $('vp-short-run').addEventListener('click', () => act(showShortChart, $('vp-short-run')));
  $('vp-print').addEventListener('click', () => window.print());
  $('vp-be-run').addEventListener('click', () => act(breakEven, $('vp-be-run')));
  $('vp-cmp-run').addEventListener('click', () => act(compare, $('vp-cmp-run')));
}
