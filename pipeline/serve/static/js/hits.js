// The Hits view (Flopzilla's table): what a range hits on a flop, turn or river, from
// /api/hits/view (the CLI's `hits` with classes, cumulative %, combined draws and, against an
// opponent, each category's equity). Click rows (Ctrl-click for more) or grid cells to select
// combos; keep them for the next street; draw the range's equity distribution.

import { $, el, pct, debounce, count } from './util.js';
import { api, act, newest } from './api.js';
import { Grid, Picker } from './grid.js';
import { drawCurve } from './curve.js';

const hits = { grid: null, picker: null, answer: null, selected: new Set(), cells: new Set(),
  board: [], dead: [], ask: newest(), askGrid: newest() };

const body = () => ({ range: $('hits-range').value, board: $('hits-board').value, dead: $('hits-dead').value });
const allRows = () => (hits.answer ? [...hits.answer.made, ...hits.answer.draws, ...hits.answer.combined] : []);
const key = (r) => `${r.kind}:${r.category}`;

// Inputs changed: the table, the selection and the curve were for the old ones.
function invalidate() {
  hits.ask.drop();
  hits.answer = null; hits.selected = new Set(); hits.cells = new Set();
  $('hits-table').replaceChildren(); $('hits-total').textContent = ''; $('hits-total').dataset.live = '';
  $('hits-curve').replaceChildren(); $('hits-curve-info').textContent = ''; $('hits-curve-info').dataset.equity = '';
  showSelection();
}

async function loadGrid() {
  const a = await hits.askGrid(api('range/format', body()));
  hits.grid.set(a.cells);
  hits.board = a.board; hits.dead = a.dead; hits.picker.render();
  return a;
}

async function runHits() {
  const vs = $('hits-eq').checked ? ($('hits-vs').value.trim() || 'random') : null;
  const asked = JSON.stringify({ ...body(), vs });
  const [a] = await Promise.all([hits.ask(api('hits/view', { ...body(), vs })), loadGrid()]);
  hits.answer = a; hits.shownFor = asked; hits.selected = new Set(); hits.cells = new Set();
  const tbody = $('hits-table'); tbody.replaceChildren();
  const withEq = vs != null;
  $('hits-eq-head').hidden = !withEq;
  const section = (title, rows, cumulative) => {
    tbody.append(el('tr', { class: 'section' }, el('th', { colspan: 6, text: title })));
    for (const r of rows) {
      const tr = el('tr', { class: r.combos ? 'cat' : 'cat empty', dataset: { category: r.category, kind: r.kind, combos: r.combos, percent: r.percent } },
        el('td', { text: r.category }), el('td', { class: 'num', text: String(r.combos) }),
        el('td', { class: 'num', text: `${r.percent.toFixed(1)}%` }),
        el('td', { class: 'num cum', text: cumulative && r.cumulative != null ? `${r.cumulative.toFixed(1)}%` : '' }),
        withEq ? el('td', { class: 'num eqcol', dataset: { equity: r.equity ?? '' }, text: r.equity == null ? '' : pct(r.equity, 1), title: r.equity_exact || '' }) : null,
        el('td', { class: 'bar-col' }, el('span', { class: 'bar', style: `width:${Math.min(100, r.percent)}%` })));
      if (r.combos) tr.addEventListener('click', (e) => selectRow(r, e.ctrlKey || e.metaKey || e.shiftKey));
      tbody.append(tr);
    }
  };
  section('Made hands (cumulative: this or better)', a.made, true);
  section('Draws', a.draws, false);
  section('Combined', a.combined, false);
  $('hits-total').textContent = `${count(a.live_combos, 'live combo')} on ${a.board}` + (withEq ? ` · equity ${pct(a.equity, 2)} vs ${a.vs} (${a.method})` : '');
  $('hits-total').dataset.live = a.live_combos;
  showSelection();
}

function selectRow(row, add) {
  const k = key(row);
  if (!add) {
    const only = hits.selected.size === 1 && hits.selected.has(k) && !hits.cells.size;
    hits.selected = new Set(only ? [] : [k]); hits.cells = new Set();
  } else if (hits.selected.has(k)) hits.selected.delete(k);
  else hits.selected.add(k);
  showSelection();
}

// A click on a grid cell selects that class's live combos (Ctrl-click adds).
function selectCell(name, add) {
  if (!hits.answer) return;
  if (!hits.answer.by_class[name]) return;
  if (!add) { const only = hits.cells.size === 1 && hits.cells.has(name) && !hits.selected.size; hits.cells = new Set(only ? [] : [name]); hits.selected = new Set(); }
  else if (hits.cells.has(name)) hits.cells.delete(name); else hits.cells.add(name);
  showSelection();
}

function selectedCombos() {
  const out = new Set();
  for (const r of allRows()) if (hits.selected.has(key(r))) for (const c of r.combo_list || []) out.add(c);
  for (const name of hits.cells) for (const c of hits.answer.by_class[name].combo_list) out.add(c);
  return [...out];
}

function showSelection() {
  const combos = selectedCombos();
  const classes = new Set(hits.cells);
  const rowsOfCells = new Set();
  for (const name of hits.cells) for (const k of hits.answer.by_class[name].rows) rowsOfCells.add(k);
  for (const r of allRows()) if (hits.selected.has(key(r))) for (const c of r.classes) classes.add(c);
  hits.grid.highlight(classes);
  for (const tr of $('hits-table').querySelectorAll('tr.cat')) {
    const k = `${tr.dataset.kind}:${tr.dataset.category}`;
    tr.classList.toggle('selected', hits.selected.has(k));
    tr.classList.toggle('holds', rowsOfCells.has(k));
  }
  $('hits-combos').textContent = combos.join('  ');
  $('hits-combos').dataset.count = combos.length;
  $('hits-sel').textContent = combos.length ? `${count(combos.length, 'combo')} selected${hits.cells.size ? ` (${[...hits.cells].join(', ')}: their categories are marked)` : ''}` : '';
  $('hits-keep').disabled = !combos.length;
}

async function keepSelected() {
  const combos = selectedCombos();
  if (!combos.length) return;
  // the server writes the kept combos (with their weights) as one range
  const a = await api('range/format', { range: combos.join(',') });
  $('hits-range').value = a.text;
  invalidate();
  $('hits-sel').textContent = `kept ${count(combos.length, 'combo')}: pick the next card`;
  await loadGrid();
}

function boardChanged() {
  const vs = $('hits-eq').checked ? ($('hits-vs').value.trim() || 'random') : null;
  if (hits.answer && hits.shownFor === JSON.stringify({ ...body(), vs })) return;  // already shown
  invalidate();
  act(async () => { const a = await loadGrid(); if (a.board.length >= 3) await runHits(); }, $('hits-board'));
}

async function runCurve() {
  const res = await hits.ask(api('equity', { hero: $('hits-range').value, vs: [$('hits-vs').value || 'random'],
    board: $('hits-board').value, dead: $('hits-dead').value, breakdown: 0 }));
  drawCurve($('hits-curve'), res.breakdown.combos);
  $('hits-curve-info').textContent = `${count(res.breakdown.combos.length, 'combo')} · equity ${pct(res.equity, 2)} vs ${res.vs.join(', ') || 'random'} (${res.method})`;
  $('hits-curve-info').dataset.equity = res.equity;
}

export function initHits(cells, deck) {
  hits.grid = new Grid($('hits-grid'), cells, { onClick: (name) => selectCell(name, false) });
  $('hits-grid').addEventListener('click', (e) => { if (e.ctrlKey || e.metaKey || e.shiftKey) { const c = e.target.closest('.cell'); if (c) { e.stopImmediatePropagation(); selectCell(c.dataset.cls, true); } } }, true);
  hits.picker = new Picker($('hits-picker'), { deck,
    lists: () => ({ board: [...hits.board], dead: [...hits.dead] }), target: () => 'board',
    onChange: (lists) => { $('hits-board').value = lists.board.join(' '); hits.board = lists.board; hits.picker.render(); boardChanged(); } });
  $('hits-run').addEventListener('click', () => act(runHits, $('hits-run')));
  $('hits-keep').addEventListener('click', () => act(keepSelected, $('hits-keep')));
  $('hits-curve-run').addEventListener('click', () => act(runCurve, $('hits-curve-run')));
  $('hits-eq').addEventListener('change', () => { invalidate(); act(runHits, $('hits-vs')); });
  const rangeTyped = debounce(() => act(loadGrid, $('hits-range')));
  $('hits-range').addEventListener('input', () => { invalidate(); rangeTyped(); });
  const typed = debounce(boardChanged);
  for (const id of ['hits-board', 'hits-dead']) $(id).addEventListener('input', () => { invalidate(); typed(); });
  $('hits-vs').addEventListener('input', () => { invalidate(); });
}

export const hitsState = hits;
export { runHits };
