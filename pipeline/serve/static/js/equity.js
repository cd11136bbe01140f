// The Equity view: seats with ranges (typed, painted on the grid, or a top-% slider), board and
// dead cards, each seat's equity and a seat's breakdown heat map. Every number is the server's:
// the grid and counts from /api/range/format, the equity from /api/equity.
//
// Every number belongs to the inputs beside it: any change of a seat, the board, the dead cards
// or the method clears the equity of every seat and the breakdown (they were computed for the
// old inputs), and answers that arrive for older inputs are dropped (``newest``).

import { $, el, pct, debounce, count } from './util.js';
import { api, act, newest, clearFieldError, showError, Stale } from './api.js';
import { Grid, Picker } from './grid.js';

const MAX_SEATS = 10;
const RANDOM = 'random';

export const eq = { seats: [], active: 0, grid: null, heat: null, picker: null, board: [], dead: [],
  compute: newest(), cellsEmpty: [] };

const seatName = (i) => (i === 0 ? 'Hero' : `Seat ${i + 1}`);
const isRandom = (text) => !text.trim() || text.trim().toLowerCase() === RANDOM;
const boardText = () => $('eq-board').value.trim();
const deadText = () => $('eq-dead').value.trim();
const seatRow = (i) => $('eq-seats').querySelector(`tr[data-seat="${i}"]`);
// A seat's range box is a textarea that wraps and grows with its range: a long range shows whole
// (ranges have no line breaks: Enter computes, a pasted line break becomes a space).
const RANGE_BOX = 'textarea.range-text';
const LINE_BREAKS = /[ \t]*[\r\n]+[ \t]*/g;
const seatInput = (i) => seatRow(i) && seatRow(i).querySelector(RANGE_BOX);
// The box wraps only between whole tokens. Browsers break after a space but not after every
// comma ("KTo+,QTo+" is one run to them), and a run wider than a narrow box was split anywhere
// ("KTo+,Q" / "To+"). The box shows a zero-width space after each comma that has no space after
// it: a break opportunity a range never holds. The seat's text (what is counted, computed, saved,
// exported and copied) is the box's text without them; style.css no longer splits a run, so a
// token wider than the box scrolls.
const ZWSP = '\u200b';
const realText = (shown) => shown.replaceAll(ZWSP, '');
const shownText = (text) => text.replace(/,(?=\S)/g, `,${ZWSP}`);
// the place in ``shown`` after ``n`` characters of its real text (after the break a comma there has)
function shownAt(shown, n) {
  let i = 0;
  for (let seen = 0; i < shown.length && seen < n; i += 1) if (shown[i] !== ZWSP) seen += 1;
  return shown[i] === ZWSP ? i + 1 : i;
}
// The box's text after an edit, as the seat's text and the caret in it: a pasted line break is a
// space; a deletion that took only a zero-width space (Backspace after a comma's, Delete before
// it) takes the character beside it, as the person meant.
function edited(box, inputType, before) {
  let caret = realText(box.value.slice(0, box.selectionStart)).replace(LINE_BREAKS, ' ').length;
  let text = realText(box.value).replace(LINE_BREAKS, ' ');
  if (text === before && box.selectionStart === box.selectionEnd) {
    if (inputType === 'deleteContentBackward' && caret > 0) {
      text = text.slice(0, caret - 1) + text.slice(caret); caret -= 1;
    } else if (inputType === 'deleteContentForward') {
      text = text.slice(0, caret) + text.slice(caret + 1);
    }
  }
  return { text, caret };
}
// Show ``text`` in the box, the caret (if given) after that many of its characters.
function setBox(box, text, caret = null) {
  const shown = shownText(text);
  if (box.value === shown) return;  // the text and caret are already right (typing inside a token)
  box.value = shown;
  if (caret != null) { const at = shownAt(shown, caret); box.setSelectionRange(at, at); }
}
// Copy and cut give the range as typed (no zero-width spaces).
function copyReal(e, cut) {
  const box = e.target; const from = box.selectionStart; const to = box.selectionEnd;
  if (from === to) return;
  e.clipboardData.setData('text/plain', realText(box.value.slice(from, to)));
  e.preventDefault();
  if (!cut) return;
  box.setRangeText('', from, to, 'start');
  box.dispatchEvent(new InputEvent('input', { inputType: 'deleteByCut' }));
}

// The box as tall as its wrapped text (border-box: the scroll height plus the borders); a box in a
// hidden view has no layout yet and is fitted when it gets one (``boxResized``).
function fitBox(box) {
  box.style.height = 'auto';
  if (!box.clientHeight) return;
  box.style.height = `${box.scrollHeight + box.offsetHeight - box.clientHeight}px`;
}

// A box whose width changed (window, new numbers beside it, the view shown) wraps anew; fitted in
// the next frame, since a box resized inside its own observer's callback is a loop error.
const boxWidths = new WeakMap();
const boxResized = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    const w = target.clientWidth;
    if (boxWidths.get(target) === w) continue;
    boxWidths.set(target, w);
    requestAnimationFrame(() => fitBox(target));
  }
});

// A seat's text set by the page (painting, the top-% slider, Clear, a saved range), shown whole.
export function showSeatText(i) {
  const box = seatInput(i); if (!box) return;
  setBox(box, eq.seats[i].text); fitBox(box);
}

function newSeat(text) { return { text, view: null, result: null, ask: newest() }; }

// The inputs changed: no seat's equity, no breakdown and no method line stays on screen.
export function invalidate() {
  eq.compute.drop();
  for (const s of eq.seats) s.result = null;
  for (let i = 0; i < eq.seats.length; i += 1) showResult(i);
  $('eq-method-out').textContent = ''; $('eq-method-out').dataset.method = '';
  clearBreakdown();
}

function clearBreakdown() {
  eq.heat.set([]);
  for (const cell of $('eq-heat').children) {
    cell.style.background = ''; cell.dataset.equity = ''; cell.classList.remove('on');
    cell.querySelector('.sub').textContent = '';
  }
  $('eq-bd-table').replaceChildren(); $('eq-bd-info').textContent = '';
}

function showResult(i) {
  const row = seatRow(i); if (!row) return;
  const res = eq.seats[i].result || {};
  for (const key of ['win', 'tie', 'lose', 'equity']) {
    const td = row.querySelector(`td.${key}`);
    td.dataset.value = res[key] ?? '';
    td.textContent = pct(res[key]) + (key === 'equity' && res.stderr != null ? ` ±${(100 * res.stderr).toFixed(3)}` : '');
  }
}

function showCount(i) {
  const row = seatRow(i); if (!row) return;
  const seat = eq.seats[i]; const v = seat.view;
  const combos = row.querySelector('td.combos'); const share = row.querySelector('td.share');
  if (!v) { combos.textContent = '–'; share.textContent = ''; return; }
  const random = isRandom(seat.text);
  combos.textContent = random && !seat.text.trim() ? RANDOM : String(v.live_weighted);
  combos.title = `${count(v.weighted, 'combo')} weighted (${count(v.combos, 'hand')}), ${v.live_weighted} live after the board and dead cards`;
  share.textContent = `${v.live_percent.toFixed(1)}%`;
  share.title = `${v.percent.toFixed(2)}% of all 1,326 hands; ${v.live_percent.toFixed(2)}% of the ${count(v.live_hands, 'hand')} the board and dead cards leave`;
  share.dataset.value = v.live_percent;
}

function renderSeats() {
  const body = $('eq-seats');
  boxResized.disconnect();  // the rows are drawn anew
  body.replaceChildren();
  eq.seats.forEach((seat, i) => {
    const input = el('textarea', { class: 'range-text', rows: '1', spellcheck: 'false',
      placeholder: 'random', 'aria-label': `range of ${seatName(i)}` });
    setBox(input, seat.text);
    input.addEventListener('copy', (e) => copyReal(e, false));
    input.addEventListener('cut', (e) => copyReal(e, true));
    input.addEventListener('focus', () => selectSeat(i));
    input.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' || e.isComposing) return;
      e.preventDefault(); $('eq-run').click();
    });
    const load = debounce(() => act(() => loadSeat(i), input));
    input.addEventListener('input', (e) => {
      const { text, caret } = edited(input, e.inputType, seat.text);
      setBox(input, text, caret);
      fitBox(input);
      seat.text = text; seat.view = null; seat.ask.drop();
      seatRow(i).dataset.counted = '';
      showCount(i); invalidate(); load();
    });
    const num = (key) => el('td', { class: `num ${key}` });
    body.append(el('tr', { class: i === eq.active ? 'seat active' : 'seat', dataset: { seat: i, counted: '' } },
      el('th', { class: 'seatname', text: seatName(i), onclick: () => selectSeat(i) }),
      el('td', { class: 'rangecell' }, input),
      el('td', { class: 'num combos' }), el('td', { class: 'num share' }),
      num('win'), num('tie'), num('lose'), num('equity'),
      el('td', {}, i === 0 ? '' : el('button', { class: 'link remove', title: 'remove seat', text: '×', type: 'button',
        onclick: () => { eq.seats.splice(i, 1); eq.active = Math.min(eq.active, eq.seats.length - 1); seatsChanged(); } }))));
    showCount(i); showResult(i);
    if (seat.view) seatRow(i).dataset.counted = seat.text;
    boxResized.observe(input); fitBox(input);
  });
  $('eq-add').disabled = eq.seats.length >= MAX_SEATS;
  const sel = $('eq-bd-seat'); const was = sel.value;
  sel.replaceChildren(...eq.seats.map((_, i) => el('option', { value: i, text: seatName(i) })));
  sel.value = was && +was < eq.seats.length ? was : '0';
}

function seatsChanged() { renderSeats(); invalidate(); selectSeat(eq.active); }

export function selectSeat(i) {
  eq.active = i;
  for (const row of $('eq-seats').children) row.classList.toggle('active', +row.dataset.seat === i);
  $('eq-active-name').textContent = seatName(i);
  const v = eq.seats[i].view;
  eq.grid.set(v ? v.cells : []);
  $('eq-grid-total').textContent = v ? `${count(v.live_weighted, 'live combo')} · ${v.live_percent.toFixed(2)}% of hands` : '';
}

// Ask the server for a seat's grid and counts, then show them (an older answer is dropped).
export async function loadSeat(i, paint = []) {
  const seat = eq.seats[i];
  const text = seat.text;
  const input = seatInput(i);
  let v;
  try {
    v = await seat.ask(api('range/format', { range: text.trim(), board: boardText(), dead: deadText(), paint }));
  } catch (e) {
    if (!(e instanceof Stale) && eq.seats[i] === seat) { seat.view = null; showCount(i); if (i === eq.active) selectSeat(i); }
    throw e;
  }
  if (eq.seats[i] !== seat) return;
  if (paint.length) { seat.text = v.text; showSeatText(i); }
  seat.view = v;
  eq.board = v.board; eq.dead = v.dead; eq.picker.render();
  if (input) clearFieldError(input);
  const row = seatRow(i);
  if (row) row.dataset.counted = seat.text;
  showCount(i);
  if (i === eq.active) selectSeat(i);
}

async function gridPainted(names, weight) {
  const i = eq.active; const seat = eq.seats[i];
  if (isRandom(seat.text) && seat.text.trim()) seat.text = '';  // painting starts a range of its own
  seat.ask.drop(); invalidate();
  $('eq-pct').value = 0; $('eq-pct-out').textContent = '0%';
  await loadSeat(i, names.map((hand) => ({ hand, weight })));
}

async function percentChanged() {
  const p = +$('eq-pct').value; const seat = eq.seats[eq.active];
  seat.text = p > 0 ? `${p}%` : '';
  showSeatText(eq.active);
  invalidate();
  await loadSeat(eq.active);
}

export function equityBody() {
  const body = {
    hero: eq.seats[0].text.trim() || RANDOM,
    vs: eq.seats.slice(1).map((s) => (isRandom(s.text) ? RANDOM : s.text.trim())),
    board: boardText(), dead: deadText(), seed: +$('eq-seed').value,
  };
  const method = $('eq-method').value;
  if (method === 'exact') body.exact = true;
  if (method === 'mc') body.samples = +$('eq-samples').value;
  return body;
}

function methodLine(res, ms) {
  const parts = [`method: ${res.method}`];
  if (res.deals != null) parts.push(count(res.deals, 'deal'));
  if (res.samples != null) parts.push(`${count(res.samples, 'sample')}, seed ${res.seed} (same inputs and seed, same numbers; Re-run draws a new seed)`);
  if (res.stderr != null) parts.push(`stderr ±${(100 * res.stderr).toFixed(3)}%`);
  parts.push(`${(1000 * res.seconds).toFixed(1)} ms on the server, ${ms.toFixed(0)} ms round trip`);
  return parts.join(' · ');
}

async function runEquity() {
  const t0 = performance.now();
  const res = await eq.compute(api('equity', equityBody()));
  const ms = performance.now() - t0;
  res.players.forEach((p, i) => { if (eq.seats[i]) eq.seats[i].result = p; });
  eq.seats.forEach((_, i) => showResult(i));
  const out = $('eq-method-out');
  out.textContent = methodLine(res, ms);
  out.dataset.method = res.method;
}

function heatColor(x) {
  const hue = Math.round(120 * Math.max(0, Math.min(1, x)));  // red (0) -> amber -> green (1)
  return `hsl(${hue} 70% 45%)`;
}

async function runBreakdown() {
  const seat = +$('eq-bd-seat').value;
  const t0 = performance.now();
  const res = await eq.compute(api('equity', { ...equityBody(), breakdown: seat }));
  const ms = performance.now() - t0;
  const byClass = new Map(res.breakdown.classes.map((c) => [c.hand, c]));
  for (const cell of $('eq-heat').children) {
    const c = byClass.get(cell.dataset.cls);
    cell.classList.toggle('on', !!c);
    cell.style.background = c ? heatColor(c.equity) : '';
    cell.dataset.equity = c ? String(c.equity) : '';
    cell.title = c ? `${c.hand}: ${pct(c.equity)} (${c.equity_exact || ''}), ${count(c.combos, 'combo')}`
      + (c.weighted === c.combos ? '' : ` (${c.weighted} weighted)`) : '';
    cell.querySelector('.sub').textContent = c ? (100 * c.equity).toFixed(1) : '';
  }
  const rows = [...res.breakdown.classes].sort((x, y) => y.equity - x.equity);
  // the server gives fractions for exact spots with unit weights only: else no empty column
  const exact = rows.some((c) => c.equity_exact);
  $('eq-bd-table').replaceChildren(
    el('thead', {}, el('tr', {}, el('th', { text: 'Class' }), el('th', { class: 'num', text: 'Combos', title: 'combos counted with their weights' }),
      el('th', { class: 'num', text: 'Share' }), el('th', { class: 'num', text: 'Equity' }),
      exact ? el('th', { class: 'num', text: 'exact' }) : null)),
    el('tbody', {}, ...rows.map((c) => el('tr', { dataset: { cls: c.hand, equity: c.equity } },
      el('td', {}, el('span', { class: 'swatch', style: `background:${heatColor(c.equity)}` }), c.hand),
      // weighted, as the share beside it and the seat's count above (AQs:0.5: 2 of its 4 combos)
      el('td', { class: 'num combos', text: String(c.weighted),
        title: `${count(c.combos, 'combo')}, ${c.weighted} with their weights` }),
      el('td', { class: 'num', text: pct(c.frequency, 1) }),
      el('td', { class: 'num', text: pct(c.equity, 2) }),
      exact ? el('td', { class: 'num exact', text: c.equity_exact || '' }) : null))));
  $('eq-bd-info').textContent = `${seatName(seat)}: ${count(res.breakdown.classes.length, 'class', null, 'classes')} · ${res.method} · ${ms.toFixed(0)} ms`;
  $('eq-bd-info').dataset.seat = seat;
  if (res.players) { res.players.forEach((p, i) => { if (eq.seats[i]) eq.seats[i].result = p; }); eq.seats.forEach((_, i) => showResult(i)); }
}

// The board or the dead cards changed: every result goes, every seat is counted again.
async function boardChanged() {
  invalidate();
  const anchor = $('eq-board');
  clearFieldError(anchor); clearFieldError($('eq-dead'));
  for (let i = 0; i < eq.seats.length; i += 1) eq.seats[i].ask.drop();
  await Promise.all(eq.seats.map((_, i) => act(() => loadSeat(i), anchor)));
}

export function initEquity(cells, deck) {
  eq.grid = new Grid($('eq-grid'), cells, { editable: true, brush: () => +$('eq-brush').value / 100,
    onPaint: (names, w) => act(() => gridPainted(names, w), seatInput(eq.active)),
    picking: () => $('eq-suits').checked, onPick: (name) => act(() => import('./suits.js').then((m) => m.openSuits(name))) });
  eq.heat = new Grid($('eq-heat'), cells);
  eq.seats = [newSeat('AKs,QQ+'), newSeat(RANDOM)];
  renderSeats(); selectSeat(0);
  eq.picker = new Picker($('eq-picker'), { deck,
    lists: () => ({ board: [...eq.board], dead: [...eq.dead] }),
    target: () => document.querySelector('input[name="eq-pick"]:checked').value,
    onChange: (lists) => { $('eq-board').value = lists.board.join(' '); $('eq-dead').value = lists.dead.join(' '); eq.board = lists.board; eq.dead = lists.dead; eq.picker.render(); boardChanged(); } });
  act(() => Promise.all(eq.seats.map((_, i) => loadSeat(i))));
  $('eq-brush').addEventListener('input', () => { $('eq-brush-out').textContent = `${$('eq-brush').value}%`; });
  const pctLoad = debounce(() => act(percentChanged, seatInput(eq.active)), 200);
  $('eq-pct').addEventListener('input', () => { $('eq-pct-out').textContent = `${$('eq-pct').value}%`; pctLoad(); });
  $('eq-clear').addEventListener('click', () => {
    eq.seats[eq.active].text = ''; showSeatText(eq.active);
    invalidate(); act(() => loadSeat(eq.active), seatInput(eq.active));
  });
  $('eq-add').addEventListener('click', () => {
    if (eq.seats.length >= MAX_SEATS) return;
    eq.seats.push(newSeat(RANDOM)); eq.active = eq.seats.length - 1; seatsChanged();
    act(() => loadSeat(eq.seats.length - 1));
  });
  // a refused computation is shown beside the seat whose range the server refused, if one is
  const culprit = () => $('eq-seats').querySelector(`${RANGE_BOX}.invalid`) || $('eq-run');
  $('eq-run').addEventListener('click', () => act(runEquity, culprit()));
  // one column (a 1024x768 laptop): the grid's own Compute brings the seats, where the equity
  // (or a refused range) shows, into view first
  $('eq-run-top').addEventListener('click', () => {
    $('eq-seats').closest('.panel').scrollIntoView({ block: 'nearest' });
    act(runEquity, culprit());
  });
  $('eq-rerun').addEventListener('click', () => {
    $('eq-seed').value = String(Math.floor(Math.random() * 2 ** 31));
    invalidate(); act(runEquity, culprit());
  });
  $('eq-bd-run').addEventListener('click', () => act(runBreakdown, culprit() === $('eq-run') ? $('eq-bd-run') : culprit()));
  const mc = () => document.querySelectorAll('.mc-only').forEach((e) => { e.hidden = $('eq-method').value !== 'mc'; });
  for (const id of ['eq-method', 'eq-samples', 'eq-seed']) $(id).addEventListener('input', invalidate);
  $('eq-method').addEventListener('change', () => { mc(); invalidate(); }); mc();
  $('eq-bd-seat').addEventListener('change', clearBreakdown);
  const typed = debounce(boardChanged);
  // 'change' too (a field emptied by the browser fires no 'input'), once per new value
  const seen = {};
  const edited = (id) => { const v = $(id).value; if (seen[id] === v) return; seen[id] = v; invalidate(); typed(); };
  for (const id of ['eq-board', 'eq-dead']) { seen[id] = $(id).value; for (const ev of ['input', 'change']) $(id).addEventListener(ev, () => edited(id)); }
  return { showError };
}
