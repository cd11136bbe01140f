// The pokertables page: plain JavaScript over the server's JSON API (docs/serve.md); every number
// shown comes from an API answer (the CLI's --json), none is computed here except the session
// tally's sums, which use exact fractions (BigInt) as the answers give them.
'use strict';

const RANKS = 'AKQJT98765432';
const SUITS = 'shdc';
const SUIT_SYMBOL = { s: '♠', h: '♥', d: '♦', c: '♣' };
const MAX_SEATS = 10;
const MAX_BOARD = 5;
const DEBOUNCE_MS = 350;
const JOB_POLL_MS = 300;
const MAX_DEALS = 10000;
const DEFAULT_GAME = 'jacks-or-better-9-6';
// combos in a pair, a suited and an offsuit class
const CLASS_COMBOS = { pair: 6, s: 4, o: 12 };

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else e.setAttribute(k, v);
  }
  for (const kid of kids) if (kid != null) e.append(kid);
  return e;
};
const pct = (x, digits = 3) => (x == null ? '–' : `${(100 * x).toFixed(digits)}%`);
const debounce = (fn, ms = DEBOUNCE_MS) => {
  let t = null;
  return (...args) => { clearTimeout(t); t = setTimeout(() => fn(...args), ms); };
};

// ------------------------------------------------------------------ API and errors

let pending = 0;
function setBusy(delta) {
  pending += delta;
  document.body.dataset.busy = String(pending);
  $('busy').hidden = pending === 0;
}

class ApiError extends Error {}

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  };
  setBusy(1);
  try {
    const r = await fetch(`/api/${path}`, opts);
    let data;
    try { data = await r.json(); } catch { data = { error: `HTTP ${r.status} ${r.statusText}` }; }
    if (!r.ok) throw new ApiError(data.error || `HTTP ${r.status}`);
    return data;
  } finally {
    setBusy(-1);
  }
}

function showError(message) {
  $('error-text').textContent = message;
  $('error').hidden = false;
}
function clearError() { $('error').hidden = true; $('error-text').textContent = ''; }

// Run a user action: clear the old error, show a new one (the server's message) if it fails.
async function act(fn) {
  clearError();
  try { return await fn(); } catch (e) {
    showError(e instanceof ApiError ? e.message : `page error: ${e.message}`);
    return undefined;
  }
}

// ------------------------------------------------------------------ exact fractions

function gcd(a, b) { a = a < 0n ? -a : a; b = b < 0n ? -b : b; while (b) [a, b] = [b, a % b]; return a; }
class Frac {
  constructor(n, d = 1n) { const g = gcd(n, d) || 1n; this.n = n / g; this.d = d / g; }
  static parse(text) { const [n, d] = String(text).split('/'); return new Frac(BigInt(n), BigInt(d || '1')); }
  add(o) { return new Frac(this.n * o.d + o.n * this.d, this.d * o.d); }
  div(k) { return new Frac(this.n, this.d * BigInt(k)); }
  toString() { return this.d === 1n ? `${this.n}` : `${this.n}/${this.d}`; }
  valueOf() { return Number(this.n) / Number(this.d); }
}

// ------------------------------------------------------------------ cards and classes

function classOf(r, c) {
  if (r === c) return RANKS[r] + RANKS[r];
  return r < c ? `${RANKS[r]}${RANKS[c]}s` : `${RANKS[c]}${RANKS[r]}o`;
}
function classCombos(name) { return name.length === 2 ? CLASS_COMBOS.pair : CLASS_COMBOS[name[2]]; }
// "AsKs" or "As Ks" -> "AKs"
function comboClass(combo) {
  const t = combo.replace(/\s+/g, '');
  const a = t.slice(0, 2); const b = t.slice(2, 4);
  const [hi, lo] = RANKS.indexOf(a[0]) <= RANKS.indexOf(b[0]) ? [a, b] : [b, a];
  if (hi[0] === lo[0]) return hi[0] + lo[0];
  return hi[0] + lo[0] + (hi[1] === lo[1] ? 's' : 'o');
}
function parseCards(text) {
  return (text.match(/(10|[2-9TJQKA])[shdc]/gi) || []).map((c) => {
    const r = c.length === 3 ? 'T' : c[0].toUpperCase();
    return r + c[c.length - 1].toLowerCase();
  });
}
function cardFace(card, extra = '') {
  if (card === 'Jk') return el('span', { class: `card joker ${extra}`, text: 'Jk' });
  return el('span', { class: `card suit-${card[1]} ${extra}`, dataset: { card } },
    card[0] === 'T' ? '10' : card[0], el('small', { text: SUIT_SYMBOL[card[1]] }));
}

// ------------------------------------------------------------------ range text <-> grid

// Compact CLI range text of class weights: runs of pairs ("TT+", "55-77") and of kickers under
// one high card ("ATs+", "A2s-A5s"), each with ":w" when its weight is below 1. ``keep`` holds
// the text of partially chosen classes (single combos), written as they are.
function rangeText(weights, keep = new Map()) {
  const w = (name) => (keep.has(name) ? 0 : weights.get(name) || 0);
  const tokens = [];
  const suffix = (x) => (x === 1 ? '' : `:${+x.toFixed(4)}`);
  const runs = (names, top, fmtRun) => {
    let i = 0;
    while (i < names.length) {
      const x = w(names[i]);
      if (!x) { i += 1; continue; }
      let j = i;
      while (j + 1 < names.length && w(names[j + 1]) === x) j += 1;
      tokens.push(fmtRun(names[i], names[j], i === 0 && top) + suffix(x));
      i = j + 1;
    }
  };
  const pairs = [...RANKS].map((r) => r + r);
  runs(pairs, true, (a, b, fromTop) => (a === b ? a : fromTop ? `${b}+` : `${b}-${a}`));
  for (const kind of ['s', 'o']) {
    for (let h = 0; h < RANKS.length - 1; h += 1) {
      const names = [...RANKS.slice(h + 1)].map((k) => RANKS[h] + k + kind);
      runs(names, true, (a, b, fromTop) => (a === b ? a : fromTop ? `${b}+` : `${b}-${a}`));
    }
  }
  for (const t of keep.values()) tokens.push(t);
  return tokens.join(',');
}

// The weights and partial classes of a `range --json` answer.
function gridOf(answer) {
  const weights = new Map(); const keep = new Map(); const fill = new Map();
  for (const c of answer.classes) {
    weights.set(c.class, c.weight);
    fill.set(c.class, c.weight * (c.mixed ? c.combos / classCombos(c.class) : 1));
    if (c.mixed) keep.set(c.class, c.text.split(',').map((t) => t.replace(/:1$/, '')).join(','));
  }
  return { weights, keep, fill };
}

class Grid {
  // A 13x13 hand grid; ``onPaint(weights)`` after a click or a dragged block when editable.
  constructor(root, { editable = false, brush = () => 1, onPaint = null } = {}) {
    this.root = root; this.brush = brush; this.onPaint = onPaint;
    this.fill = new Map(); this.cells = new Map();
    root.classList.toggle('editable', editable);
    for (let r = 0; r < 13; r += 1) {
      for (let c = 0; c < 13; c += 1) {
        const name = classOf(r, c);
        const cell = el('div', { class: `cell ${r === c ? 'pair' : r < c ? 'suited' : 'offsuit'}`,
          dataset: { cls: name, row: r, col: c } }, el('span', { text: name }));
        this.cells.set(name, cell);
        root.append(cell);
      }
    }
    if (editable) this.enableDrag();
  }

  enableDrag() {
    let start = null; let before = null; let value = 0;
    const cellAt = (e) => e.target.closest && e.target.closest('.cell');
    const paint = (cell) => {
      const [r0, c0] = start; const r1 = +cell.dataset.row; const c1 = +cell.dataset.col;
      this.fill = new Map(before);
      for (let r = Math.min(r0, r1); r <= Math.max(r0, r1); r += 1) {
        for (let c = Math.min(c0, c1); c <= Math.max(c0, c1); c += 1) {
          const name = classOf(r, c);
          if (value) this.fill.set(name, value); else this.fill.delete(name);
          this.painted.add(name);
        }
      }
      this.render();
    };
    this.root.addEventListener('mousedown', (e) => {
      const cell = cellAt(e); if (!cell) return;
      e.preventDefault();
      start = [+cell.dataset.row, +cell.dataset.col];
      before = new Map(this.fill); this.painted = new Set();
      const b = this.brush();
      value = (this.fill.get(cell.dataset.cls) || 0) === b ? 0 : b;  // a painted hand erases
      paint(cell);
    });
    this.root.addEventListener('mouseover', (e) => { const cell = cellAt(e); if (start && cell) paint(cell); });
    window.addEventListener('mouseup', () => {
      if (!start) return;
      start = null;
      if (this.onPaint) this.onPaint(this.fill, this.painted);
    });
  }

  set(fill) { this.fill = new Map(fill); this.render(); }

  render() {
    for (const [name, cell] of this.cells) {
      const x = this.fill.get(name) || 0;
      cell.style.setProperty('--w', x);
      cell.classList.toggle('on', x > 0);
      cell.classList.toggle('part', x > 0 && x < 1);
      cell.dataset.weight = String(x);
      cell.dataset.pct = x > 0 && x < 1 ? `${Math.round(100 * x)}%` : '';
    }
  }

  highlight(classes) {
    for (const [name, cell] of this.cells) cell.classList.toggle('hl', classes.has(name));
  }
}

// ------------------------------------------------------------------ card picker

class Picker {
  // 52 cards; clicking one toggles it in the target list ``target()`` names ("board" or "dead").
  constructor(root, { lists, target, onChange }) {
    this.lists = lists; this.target = target; this.onChange = onChange; this.cards = new Map();
    for (const s of SUITS) {
      const row = el('div', { class: 'pickrow' });
      for (const r of RANKS) {
        const card = r + s;
        const b = el('button', { class: `pick suit-${s}`, dataset: { card }, title: card,
          onclick: () => this.toggle(card) }, r === 'T' ? '10' : r, el('small', { text: SUIT_SYMBOL[s] }));
        this.cards.set(card, b);
        row.append(b);
      }
      root.append(row);
    }
  }

  toggle(card) {
    const name = this.target();
    const lists = this.lists();
    const list = lists[name];
    const i = list.indexOf(card);
    if (i >= 0) list.splice(i, 1);
    else if (Object.values(lists).some((l) => l.includes(card))) return;
    else if (name === 'board' && list.length >= MAX_BOARD) return;
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

// ------------------------------------------------------------------ Equity view

const eq = {
  seats: [],
  active: 0,
  grid: null,
  picker: null,
};

function seatName(i) { return i === 0 ? 'Hero' : `Seat ${i + 1}`; }
function boardText() { return $('eq-board').value.trim(); }
function deadText() { return $('eq-dead').value.trim(); }

function newSeat(text) { return { text, fill: new Map(), keep: new Map(), combos: null, result: null }; }

function renderSeats() {
  const body = $('eq-seats');
  body.replaceChildren();
  eq.seats.forEach((seat, i) => {
    const input = el('input', { class: 'range-text', value: seat.text, spellcheck: 'false',
      placeholder: 'random', 'aria-label': `range of ${seatName(i)}` });
    input.addEventListener('focus', () => selectSeat(i));
    const ask = debounce(() => {
      act(async () => {
        try { await loadSeat(i); input.classList.remove('invalid'); } catch (e) { input.classList.add('invalid'); throw e; }
      });
    });
    input.addEventListener('input', () => {
      seat.text = input.value; seat.counted = null;
      input.closest('tr').dataset.counted = '';  // counted again once the server answers
      ask();
    });
    const res = seat.result || {};
    const num = (key) => el('td', { class: `num ${key}`, dataset: { value: res[key] ?? '' },
      text: pct(res[key]) + (key === 'equity' && res.stderr != null ? ` ±${(100 * res.stderr).toFixed(3)}` : '') });
    const row = el('tr', { class: i === eq.active ? 'seat active' : 'seat', dataset: { seat: i, counted: seat.counted ?? '' } },
      el('th', { class: 'seatname', text: seatName(i), onclick: () => selectSeat(i) }),
      el('td', {}, input),
      el('td', { class: 'num combos', text: seat.combos == null ? (isRandom(seat.text) ? 'random' : '') : String(seat.combos) }),
      num('win'), num('tie'), num('lose'), num('equity'),
      el('td', {}, i === 0 ? '' : el('button', { class: 'link remove', title: 'remove seat', text: '×',
        onclick: () => { eq.seats.splice(i, 1); eq.active = Math.min(eq.active, eq.seats.length - 1); refreshSeats(); } })));
    body.append(row);
  });
  $('eq-add').disabled = eq.seats.length >= MAX_SEATS;
  const sel = $('eq-bd-seat'); const was = sel.value;
  sel.replaceChildren(...eq.seats.map((_, i) => el('option', { value: i, text: seatName(i) })));
  sel.value = was && +was < eq.seats.length ? was : '0';
}

function refreshSeats() {
  for (const s of eq.seats) s.result = null;
  renderSeats(); selectSeat(eq.active);
}

function selectSeat(i) {
  eq.active = i;
  for (const row of $('eq-seats').children) row.classList.toggle('active', +row.dataset.seat === i);
  $('eq-active-name').textContent = seatName(i);
  eq.grid.set(eq.seats[i].fill);
}

function isRandom(text) { return !text.trim() || text.trim().toLowerCase() === 'random'; }

// Ask the server for a seat's grid (its text in the CLI's syntax) and show it.
async function loadSeat(i) {
  const seat = eq.seats[i];
  seat.asked = (seat.asked || 0) + 1;
  const asked = seat.asked;
  if (isRandom(seat.text)) {
    seat.fill = new Map(); seat.keep = new Map(); seat.combos = null;
  } else {
    const a = await api('range', { range: seat.text, board: boardText(), dead: deadText() });
    if (asked !== seat.asked || eq.seats[i] !== seat) return;  // a later question overtook this one
    const g = gridOf(a);
    seat.fill = g.fill; seat.keep = g.keep; seat.weights = g.weights; seat.combos = a.live_weighted;
  }
  const stale = seat.result && seat.result.forText !== seat.text;  // an answer to another text
  if (stale) seat.result = null;
  const row = $('eq-seats').querySelector(`tr[data-seat="${i}"]`);
  if (row) {
    row.dataset.counted = seat.counted = seat.text;  // the text whose count the row shows
    row.querySelector('td.combos').textContent = seat.combos == null ? 'random' : String(seat.combos);
    if (stale) for (const k of ['win', 'tie', 'lose', 'equity']) { const td = row.querySelector(`td.${k}`); td.textContent = '–'; td.dataset.value = ''; }
  }
  if (i === eq.active) eq.grid.set(seat.fill);
}

// The grid was painted: write the seat's text from the grid, then let the server count it.
async function gridPainted(fill, painted) {
  const seat = eq.seats[eq.active];
  for (const name of painted) seat.keep.delete(name);
  const text = rangeText(fill, seat.keep);
  seat.text = text;
  const input = $('eq-seats').querySelector(`tr[data-seat="${eq.active}"] input`);
  if (input) input.value = text;
  $('eq-pct').value = 0; $('eq-pct-out').textContent = '0%';
  if (text) await loadSeat(eq.active);
  else { seat.fill = new Map(); seat.combos = null; await loadSeat(eq.active); }
}

async function percentChanged() {
  const p = +$('eq-pct').value;
  const seat = eq.seats[eq.active];
  seat.text = p > 0 ? `${p}%` : '';
  const input = $('eq-seats').querySelector(`tr[data-seat="${eq.active}"] input`);
  if (input) input.value = seat.text;
  await loadSeat(eq.active);
}

function equityBody() {
  const body = {
    hero: eq.seats[0].text.trim() || 'random',
    vs: eq.seats.slice(1).map((s) => (isRandom(s.text) ? 'random' : s.text.trim())),
    board: boardText(), dead: deadText(),
  };
  const method = $('eq-method').value;
  if (method === 'exact') body.exact = true;
  if (method === 'mc') { body.samples = +$('eq-samples').value; body.seed = +$('eq-seed').value; }
  return body;
}

function methodLine(res, ms) {
  const parts = [`method: ${res.method}`];
  if (res.deals != null) parts.push(`${res.deals.toLocaleString('en')} deals`);
  if (res.samples != null) parts.push(`${res.samples.toLocaleString('en')} samples, seed ${res.seed}`);
  if (res.stderr != null) parts.push(`stderr ±${(100 * res.stderr).toFixed(3)}%`);
  parts.push(`${(1000 * res.seconds).toFixed(1)} ms on the server, ${ms.toFixed(0)} ms round trip`);
  return parts.join(' · ');
}

async function runEquity() {
  const t0 = performance.now();
  const texts = eq.seats.map((s) => s.text);
  const res = await api('equity', equityBody());
  const ms = performance.now() - t0;
  res.players.forEach((p, i) => { if (eq.seats[i]) { eq.seats[i].result = { ...p, forText: texts[i] }; eq.seats[i].combos = p.combos; } });
  renderSeats();
  const out = $('eq-method-out');
  out.textContent = methodLine(res, ms);
  out.dataset.method = res.method;
}

function heatColor(x) {
  // red (0) -> amber (0.5) -> green (1)
  const hue = Math.round(120 * Math.max(0, Math.min(1, x)));
  return `hsl(${hue} 70% 45%)`;
}

async function runBreakdown() {
  const seat = +$('eq-bd-seat').value;
  const t0 = performance.now();
  const res = await api('equity', { ...equityBody(), breakdown: seat });
  const ms = performance.now() - t0;
  const heat = $('eq-heat');
  const byClass = new Map(res.breakdown.classes.map((c) => [c.hand, c]));
  for (const cell of heat.children) {
    const c = byClass.get(cell.dataset.cls);
    cell.classList.toggle('on', !!c);
    cell.style.background = c ? heatColor(c.equity) : '';
    cell.dataset.equity = c ? String(c.equity) : '';
    cell.title = c ? `${c.hand}: ${pct(c.equity)} (${c.equity_exact || ''}), ${c.combos} combos` : '';
    cell.querySelector('b').textContent = c ? (100 * c.equity).toFixed(1) : '';
  }
  const rows = [...res.breakdown.classes].sort((x, y) => y.equity - x.equity);
  $('eq-bd-table').replaceChildren(
    el('thead', {}, el('tr', {}, el('th', { text: 'Class' }), el('th', { class: 'num', text: 'Combos' }),
      el('th', { class: 'num', text: 'Share' }), el('th', { class: 'num', text: 'Equity' }), el('th', { class: 'num', text: 'exact' }))),
    el('tbody', {}, ...rows.map((c) => el('tr', { dataset: { cls: c.hand, equity: c.equity } },
      el('td', {}, el('span', { class: 'swatch', style: `background:${heatColor(c.equity)}` }), c.hand),
      el('td', { class: 'num', text: String(c.combos) }), el('td', { class: 'num', text: pct(c.frequency, 1) }),
      el('td', { class: 'num', text: pct(c.equity, 2) }), el('td', { class: 'num exact', text: c.equity_exact || '' })))));
  $('eq-bd-info').textContent = `${seatName(seat)}: ${res.breakdown.classes.length} classes · ${res.method} · ${ms.toFixed(0)} ms`;
}

function boardChanged() {
  eq.picker.render();
  for (const seat of eq.seats) seat.result = null;  // answers to another board
  renderSeats();
  $('eq-method-out').textContent = '';
  act(async () => { for (let i = 0; i < eq.seats.length; i += 1) await loadSeat(i); });
}

function initEquity() {
  eq.grid = new Grid($('eq-grid'), { editable: true, brush: () => +$('eq-brush').value / 100,
    onPaint: (fill, painted) => act(() => gridPainted(fill, painted)) });
  const heat = $('eq-heat');
  for (let r = 0; r < 13; r += 1) {
    for (let c = 0; c < 13; c += 1) {
      heat.append(el('div', { class: 'cell', dataset: { cls: classOf(r, c) } },
        el('span', { text: classOf(r, c) }), el('b')));
    }
  }
  eq.seats = [newSeat('AKs,QQ+'), newSeat('random')];
  renderSeats();
  selectSeat(0);
  act(async () => { for (let i = 0; i < eq.seats.length; i += 1) await loadSeat(i); });
  $('eq-brush').addEventListener('input', () => { $('eq-brush-out').textContent = `${$('eq-brush').value}%`; });
  const pctLoad = debounce(() => act(percentChanged), 200);
  $('eq-pct').addEventListener('input', () => { $('eq-pct-out').textContent = `${$('eq-pct').value}%`; pctLoad(); });
  $('eq-clear').addEventListener('click', () => act(() => gridPainted(new Map(), new Set(eq.seats[eq.active].keep.keys()))));
  $('eq-add').addEventListener('click', () => {
    if (eq.seats.length >= MAX_SEATS) return;
    eq.seats.push(newSeat('random')); refreshSeats(); selectSeat(eq.seats.length - 1);
    act(() => loadSeat(eq.seats.length - 1));
  });
  $('eq-run').addEventListener('click', () => act(runEquity));
  $('eq-bd-run').addEventListener('click', () => act(runBreakdown));
  const mc = () => document.querySelectorAll('.mc-only').forEach((e) => { e.hidden = $('eq-method').value !== 'mc'; });
  $('eq-method').addEventListener('change', mc); mc();
  eq.picker = new Picker($('eq-picker'), {
    lists: () => ({ board: parseCards($('eq-board').value), dead: parseCards($('eq-dead').value) }),
    target: () => document.querySelector('input[name="eq-pick"]:checked').value,
    onChange: (lists) => { $('eq-board').value = lists.board.join(' '); $('eq-dead').value = lists.dead.join(' '); boardChanged(); },
  });
  const typed = debounce(boardChanged);
  $('eq-board').addEventListener('input', typed);
  $('eq-dead').addEventListener('input', typed);
}

// ------------------------------------------------------------------ Hits view

const hits = { grid: null, picker: null, answer: null, selected: new Set() };

function comboList(row) {
  if (Array.isArray(row.combo_list)) return row.combo_list;
  if (Array.isArray(row.combos)) return row.combos;
  return null;
}
function comboCount(row) { return Array.isArray(row.combos) ? row.combos.length : row.combos; }

async function loadHitsRange() {
  const a = await api('range', { range: $('hits-range').value, board: $('hits-board').value, dead: $('hits-dead').value });
  hits.grid.set(gridOf(a).fill);
}

async function runHits() {
  const [a] = await Promise.all([
    api('hits', { range: $('hits-range').value, board: $('hits-board').value, dead: $('hits-dead').value }),
    loadHitsRange(),
  ]);
  hits.answer = a; hits.selected = new Set();
  const body = $('hits-table'); body.replaceChildren();
  const section = (title, rows) => {
    body.append(el('tr', { class: 'section' }, el('th', { colspan: 4, text: title })));
    for (const r of rows) {
      const n = comboCount(r);
      const tr = el('tr', { class: n ? 'cat' : 'cat empty', dataset: { category: r.category, kind: r.kind, combos: n, percent: r.percent } },
        el('td', { text: r.category }), el('td', { class: 'num', text: String(n) }),
        el('td', { class: 'num', text: `${r.percent.toFixed(1)}%` }),
        el('td', { class: 'bar-col' }, el('span', { class: 'bar', style: `width:${Math.min(100, r.percent)}%` })));
      if (n) tr.addEventListener('click', (e) => selectCategory(r, tr, e.ctrlKey || e.metaKey || e.shiftKey));
      body.append(tr);
    }
  };
  section('Made hands', a.made);
  section('Draws', a.draws);
  $('hits-total').textContent = `${a.live_combos} live combos on ${a.board}`;
  $('hits-total').dataset.live = a.live_combos;
  showSelection();
}

function selectedCombos() {
  const out = new Set();
  for (const key of hits.selected) {
    const row = [...hits.answer.made, ...hits.answer.draws].find((r) => `${r.kind}:${r.category}` === key);
    for (const c of comboList(row) || []) out.add(c.replace(/\s+/g, ''));
  }
  return [...out];
}

function selectCategory(row, tr, add) {
  const key = `${row.kind}:${row.category}`;
  if (!add) {
    const only = hits.selected.size === 1 && hits.selected.has(key);
    hits.selected = new Set(only ? [] : [key]);
  } else if (hits.selected.has(key)) hits.selected.delete(key);
  else hits.selected.add(key);
  for (const r of $('hits-table').querySelectorAll('tr.cat')) {
    r.classList.toggle('selected', hits.selected.has(`${r.dataset.kind}:${r.dataset.category}`));
  }
  showSelection();
}

function showSelection() {
  const combos = hits.selected.size ? selectedCombos() : [];
  hits.grid.highlight(new Set(combos.map(comboClass)));
  $('hits-combos').textContent = combos.join(' ');
  $('hits-combos').dataset.count = combos.length;
  $('hits-sel').textContent = hits.selected.size ? `${combos.length} combos selected` : '';
  const missing = [...hits.selected].some((k) => {
    const row = [...hits.answer.made, ...hits.answer.draws].find((r) => `${r.kind}:${r.category}` === k);
    return comboList(row) === null;
  });
  if (missing) $('hits-combos').textContent = 'this server does not list each category\'s combos';
  $('hits-keep').disabled = !combos.length;
}

function keepSelected() {
  const combos = selectedCombos();
  if (!combos.length) return;
  $('hits-range').value = combos.join(',');
  hits.selected = new Set();
  $('hits-keep').disabled = true;
  $('hits-sel').textContent = `kept ${combos.length} combos: pick the next card`;
  return loadHitsRange();
}

function hitsBoardChanged() {
  hits.picker.render();
  const n = parseCards($('hits-board').value).length;
  if (n >= 3) act(runHits);
}

async function runCurve() {
  const res = await api('equity', { hero: $('hits-range').value, vs: [$('hits-vs').value || 'random'],
    board: $('hits-board').value, dead: $('hits-dead').value, breakdown: 0 });
  const combos = [...res.breakdown.combos].sort((a, b) => b.equity - a.equity);
  const total = combos.reduce((s, c) => s + c.weight, 0);
  const W = 400; const H = 200;
  let x = 0; const pts = [];
  for (const c of combos) { pts.push(`${(W * x / total).toFixed(1)},${(H * (1 - c.equity)).toFixed(1)}`); x += c.weight; pts.push(`${(W * x / total).toFixed(1)},${(H * (1 - c.equity)).toFixed(1)}`); }
  const svg = $('hits-curve');
  const ns = 'http://www.w3.org/2000/svg';
  svg.replaceChildren();
  for (const y of [0.25, 0.5, 0.75]) {
    const l = document.createElementNS(ns, 'line');
    Object.entries({ x1: 0, x2: W, y1: H * y, y2: H * y, class: 'gridline' }).forEach(([k, v]) => l.setAttribute(k, v));
    svg.append(l);
  }
  const p = document.createElementNS(ns, 'polyline');
  p.setAttribute('points', pts.join(' ')); p.setAttribute('class', 'curveline');
  svg.append(p);
  $('hits-curve-info').textContent = `${combos.length} combos · equity ${pct(res.equity, 2)} vs ${res.vs.join(', ') || 'random'} (${res.method})`;
  $('hits-curve-info').dataset.equity = res.equity;
}

function initHits() {
  hits.grid = new Grid($('hits-grid'));
  hits.answer = { made: [], draws: [] };
  hits.picker = new Picker($('hits-picker'), {
    lists: () => ({ board: parseCards($('hits-board').value), dead: parseCards($('hits-dead').value) }),
    target: () => 'board',
    onChange: (lists) => { $('hits-board').value = lists.board.join(' '); hitsBoardChanged(); },
  });
  hits.picker.render();
  $('hits-run').addEventListener('click', () => act(runHits));
  $('hits-keep').addEventListener('click', () => act(keepSelected));
  $('hits-curve-run').addEventListener('click', () => act(runCurve));
  $('hits-range').addEventListener('input', debounce(() => act(loadHitsRange)));
  $('hits-board').addEventListener('input', debounce(() => hits.picker.render()));
}

// ------------------------------------------------------------------ Video poker view

const vp = {
  game: DEFAULT_GAME, pay: [], lines: [], name: '', deals: [], seed: 1, hand: 0, cards: [], held: new Set(),
  graded: true, tally: null,
};

function resetTally() {
  vp.tally = { hands: 0, mistakes: 0, cost: new Frac(0n), ev: new Frac(0n), best: new Frac(0n) };
  renderTally();
}

function renderTally() {
  const t = vp.tally;
  const set = (id, text, value) => { $(id).textContent = text; $(id).dataset.value = value; };
  set('vp-t-hands', String(t.hands), t.hands);
  set('vp-t-mistakes', String(t.mistakes), t.mistakes);
  set('vp-t-cost', `${t.cost} = ${(+t.cost).toFixed(5)}`, t.cost.toString());
  if (t.hands) {
    const ret = t.ev.div(t.hands); const opt = t.best.div(t.hands);
    set('vp-t-ret', `${pct(+ret, 4)}  (${ret})`, ret.toString());
    set('vp-t-opt', `${pct(+opt, 4)}  (${opt})`, opt.toString());
  } else { set('vp-t-ret', '–', ''); set('vp-t-opt', '–', ''); }
}

async function searchGames() {
  const q = $('vp-search').value.trim();
  const rows = await api(q ? `vp/games?q=${encodeURIComponent(q)}` : 'vp/games');
  const sel = $('vp-game');
  sel.replaceChildren(...rows.map((r) => el('option', { value: r.slug, text: r.name })));
  if (rows.length && !rows.some((r) => r.slug === vp.game)) { sel.value = rows[0].slug; await chooseGame(rows[0].slug); } else sel.value = vp.game;
  if (!rows.length) showError(`no game matches "${q}"`);
  return rows;
}

// "1 in 40,391" for a probability: how players read a line's frequency
function oneIn(p) {
  const n = 1 / p;
  return n < 100 ? n.toFixed(2) : Math.round(n).toLocaleString('en');
}
const exact = (text) => Frac.parse(text).toString();

function renderPays(answer) {
  vp.lines = answer.lines;
  const body = $('vp-pays'); body.replaceChildren();
  for (const ln of answer.lines) {
    const orig = vp.original.get(ln.hand);
    const input = el('input', { class: 'pay', type: 'text', value: String(ln.pays), 'aria-label': `pay of ${ln.hand}`, dataset: { hand: ln.hand } });
    input.classList.toggle('edited', orig != null && String(orig) !== String(ln.pays));
    input.addEventListener('input', payEdited);
    body.append(el('tr', {}, el('td', { text: ln.hand }), el('td', { class: 'num' }, input),
      el('td', { class: 'num', title: String(ln.probability), text: ln.probability ? `1 in ${oneIn(ln.probability)}` : 'never' }),
      el('td', { class: 'num', text: pct(ln.return, 4) })));
  }
  $('vp-return').textContent = `return ${pct(answer.return, 4)} (${answer.return_exact}) · variance ${answer.variance.toFixed(2)}`;
  $('vp-game-return').textContent = `optimal play returns ${pct(answer.return, 4)}; hits ${pct(answer.bankroll ? answer.bankroll.hit_frequency : null, 2)} of hands`;
  $('vp-return').dataset.returnExact = answer.return_exact;
  vp.name = answer.name;
  $('vp-name').textContent = answer.name;
  $('vp-be-line').replaceChildren(...answer.lines.map((ln) => el('option', { value: ln.hand, text: ln.hand })));
}

function pendingEdits() {
  const out = [];
  for (const input of $('vp-pays').querySelectorAll('input.pay')) {
    if (String(vp.original.get(input.dataset.hand)) !== input.value.trim()) out.push(`${input.dataset.hand}=${input.value.trim()}`);
  }
  return out;
}

function payEdited() {
  const edits = pendingEdits();
  for (const input of $('vp-pays').querySelectorAll('input.pay')) {
    input.classList.toggle('edited', String(vp.original.get(input.dataset.hand)) !== input.value.trim());
  }
  $('vp-solve').disabled = JSON.stringify(edits) === JSON.stringify(vp.pay);
}

async function chooseGame(slug) {
  vp.game = slug; vp.pay = []; vp.deals = []; vp.hand = 0;
  const a = await api('vp/analyze', { paytable: slug });
  vp.original = new Map(a.lines.map((ln) => [ln.hand, ln.pays]));
  renderPays(a);
  $('vp-solve').disabled = true; $('vp-unedit').disabled = true;
  $('vp-chart').replaceChildren(); $('vp-be').replaceChildren(); $('vp-print').disabled = true;
}

async function solveEdited() {
  const pay = pendingEdits();
  const { id } = await api('jobs', { kind: 'vp/analyze', body: { paytable: vp.game, pay } });
  const box = $('vp-progress'); const bar = box.querySelector('.bar'); const text = box.querySelector('.ptext');
  box.hidden = false; box.dataset.state = 'running';
  $('vp-solve').disabled = true;
  try {
    for (;;) {
      const j = await api(`jobs/${encodeURIComponent(id)}`);
      // a solve that reports no fractions shows a moving bar and the seconds so far
      box.classList.toggle('indeterminate', j.state !== 'done' && !j.progress);
      bar.style.width = `${(100 * j.progress).toFixed(1)}%`;
      text.textContent = j.progress ? `${j.text} ${(100 * j.progress).toFixed(0)}%`
        : `${j.state === 'waiting' ? 'waiting' : 'solving the edited game exactly'}… ${(j.seconds || 0).toFixed(1)} s`;
      if (j.state === 'done') { vp.pay = pay; renderPays(j.result); break; }
      if (j.state === 'error') throw new ApiError(j.error);
      await new Promise((r) => setTimeout(r, JOB_POLL_MS));
    }
  } finally {
    box.dataset.state = 'done'; box.hidden = true;
    payEdited();
  }
  $('vp-unedit').disabled = !vp.pay.length;
  vp.deals = []; vp.hand = 0;
  $('vp-chart').replaceChildren(); $('vp-print').disabled = true;
}

async function deal() {
  const seed = +$('vp-seed').value;
  if (seed !== vp.seed) { vp.seed = seed; vp.deals = []; vp.hand = 0; }
  if (vp.hand >= vp.deals.length) {
    // `vp deal --seed S --count N`: the session's n-th hand is the n-th deal of that command
    const count = Math.min(MAX_DEALS, Math.max(10, 2 * vp.deals.length));
    const a = await api('vp/deal', { paytable: vp.game, seed, count });
    vp.deals = a.deals;
    if (vp.hand >= vp.deals.length) vp.hand = 0;
  }
  vp.cards = vp.deals[vp.hand].split(/\s+/);
  vp.hand += 1;
  vp.held = new Set(); vp.graded = false;
  renderCards();
  $('vp-hand-no').textContent = `hand ${vp.hand} of seed ${seed}`;
  $('vp-verdict').hidden = true; $('vp-holds').hidden = true;
  $('vp-draw').disabled = false;
}

function holdName(hold) { return !hold || hold === 'none' ? 'nothing (draw five)' : hold; }

function renderCards() {
  const box = $('vp-cards'); box.replaceChildren();
  vp.cards.forEach((card, i) => {
    const c = el('div', { class: `vpcard${vp.held.has(i) ? ' held' : ''}`, dataset: { pos: i, card } },
      el('div', { class: 'holdtag', text: 'HELD' }), cardFace(card, 'big'));
    c.addEventListener('click', () => {
      if (vp.graded) return;
      if (vp.held.has(i)) vp.held.delete(i); else vp.held.add(i);
      renderCards();
    });
    box.append(c);
  });
}

async function draw() {
  const hold = vp.held.size ? [...vp.held].sort().map((i) => vp.cards[i]).join(' ') : 'none';
  const dealText = vp.cards.join(' ');
  const [g, h] = await Promise.all([
    api('vp/grade', { deal: dealText, hold, paytable: vp.game, pay: vp.pay }),
    api('vp/hold', { deal: dealText, paytable: vp.game, pay: vp.pay }),
  ]);
  vp.graded = true; $('vp-draw').disabled = true;
  const t = vp.tally;
  t.hands += 1;
  if (!g.optimal) t.mistakes += 1;
  t.cost = t.cost.add(Frac.parse(g.cost_exact));
  t.ev = t.ev.add(Frac.parse(g.ev_exact));
  t.best = t.best.add(Frac.parse(g.best_ev_exact));
  renderTally();
  const v = $('vp-verdict');
  v.hidden = false;
  v.className = `verdict ${g.optimal ? 'good' : 'bad'}`;
  v.dataset.costExact = g.cost_exact; v.dataset.bestHold = g.best_hold; v.dataset.optimal = g.optimal;
  v.replaceChildren(
    el('strong', { text: g.optimal ? 'Correct.' : 'Mistake.' }), ' ',
    g.optimal ? `Your hold ${holdName(hold)} is the best: EV ${exact(g.ev_exact)} = ${g.ev.toFixed(5)}.`
      : el('span', {}, `You held ${holdName(hold)}: EV ${exact(g.ev_exact)} = ${g.ev.toFixed(5)}. Best: `,
        el('b', { class: 'besthold', text: holdName(g.best_hold) }), `, EV ${exact(g.best_ev_exact)} = ${g.best_ev.toFixed(5)}. Cost `,
        el('b', { class: 'cost', text: exact(g.cost_exact) }), ` = ${g.cost.toFixed(5)} per coin bet (rank ${g.rank} of 32).`));
  const body = $('vp-holds').querySelector('tbody'); body.replaceChildren();
  h.holds.forEach((r, i) => {
    const played = r.hold === g.hold || (hold === 'none' && r.held === 0);
    body.append(el('tr', { class: `${r.best ? 'best' : ''}${played ? ' played' : ''}`, dataset: { evExact: r.ev_exact, hold: r.hold } },
      el('td', { text: String(i + 1) }), el('td', { text: r.held ? r.hold : 'draw five' }),
      el('td', { class: 'num', text: exact(r.ev_exact) }), el('td', { class: 'num', text: r.ev.toFixed(5) }),
      el('td', { class: 'num', text: r.cost ? r.cost.toFixed(5) : '' })));
  });
  $('vp-holds').hidden = false;
}

async function showChart() {
  const a = await api('vp/chart', { paytable: vp.game, pay: vp.pay });
  const card = $('vp-chart');
  card.replaceChildren(
    el('h3', { text: `${a.name}: strategy` }),
    el('p', { class: 'chartnote pays', text: `Pays: ${vp.lines.map((ln) => `${ln.hand} ${ln.pays}`).filter((t) => !t.endsWith(' 0')).join(' · ')}` }),
    el('p', { class: 'chartnote', text: 'Hold the first line that fits the deal.' }),
    el('ol', { class: 'chartlines' }, ...a.lines.map((ln) => el('li', { dataset: { line: ln.line } }, ln.hold))),
    el('p', { class: 'chartnote', text: `Playing this chart returns ${pct(a.chart_return, 4)} (${a.chart_return_exact}); perfect play ${pct(a.optimal_return, 4)}; cost ${a.cost_exact} per coin.` }),
    el('p', { class: 'chartnote small', text: `Ties: ${a.tie_rule}. ${a.source}.` }),
  );
  card.dataset.chartReturnExact = a.chart_return_exact;
  card.dataset.lines = a.lines.length;
  $('vp-print').disabled = false;
}

async function breakEven() {
  const a = await api('vp/breakeven', { paytable: vp.game, line: $('vp-be-line').value, pay: vp.pay });
  const box = $('vp-be');
  const ch = a.strategy_changes;
  box.replaceChildren(
    el('p', {}, `${a.line} pays ${a.paytable.pay} (return ${pct(a.paytable.return, 4)}). The game returns ${pct(a.target, 0)} from `,
      el('b', { class: 'bepay', text: exact(a.break_even_exact) }), ` (exact break-even ${exact(a.exact_break_even || a.break_even_exact)}), where it returns ${pct(a.at_break_even.return, 4)}.`),
    el('p', { text: `Meter at break-even: ${a.meters.map((m) => `$${m.paid.toLocaleString('en')} at $${m.bet} bet`).join(', ')}.` }),
    el('p', { text: `Strategy changes: ${ch.classes} classes, ${pct(ch.deal_fraction, 2)} of deals, worth ${pct(ch.return_gain, 4)}.` }),
    el('table', { class: 'changes' },
      el('tr', {}, el('th', { text: 'example deal' }), el('th', { text: 'was' }), el('th', { text: 'now' })),
      ...ch.top.map((c) => el('tr', {}, el('td', { text: c.example_deal }), el('td', { text: c.hold_before }), el('td', { text: c.hold_after })))),
  );
  box.dataset.breakEvenExact = a.break_even_exact;
}

async function compare() {
  const games = [...$('vp-cmp-games').selectedOptions].map((o) => o.value);
  const a = await api('vp/compare', { paytables: games.length ? games : [vp.game] });
  const rows = [
    ['return', (g) => pct(g.return, 4)], ['variance', (g) => g.variance.toFixed(2)],
    ['hit frequency', (g) => pct(g.hit_frequency, 2)], ['royal cycle', (g) => Math.round(g.royal_cycle).toLocaleString('en')],
    ['break-even royal', (g) => `${g.break_even_royal} (${g.break_even_royal_coins} coins)`],
  ];
  $('vp-cmp').replaceChildren(
    el('tr', {}, el('th'), ...a.games.map((g) => el('th', { class: 'num', text: g.name }))),
    ...rows.map(([label, f]) => el('tr', {}, el('th', { text: label }), ...a.games.map((g) => el('td', { class: 'num', text: f(g), dataset: { slug: g.slug, returnExact: g.return_exact } })))),
  );
}

function initVp() {
  resetTally();
  $('vp-search').addEventListener('input', debounce(() => act(searchGames)));
  $('vp-game').addEventListener('change', () => act(() => chooseGame($('vp-game').value)));
  $('vp-deal').addEventListener('click', () => act(deal));
  $('vp-draw').addEventListener('click', () => act(draw));
  $('vp-t-reset').addEventListener('click', resetTally);
  $('vp-solve').addEventListener('click', () => act(solveEdited));
  $('vp-unedit').addEventListener('click', () => act(() => chooseGame(vp.game)));
  $('vp-chart-run').addEventListener('click', () => act(showChart));
  $('vp-print').addEventListener('click', () => window.print());
  $('vp-be-run').addEventListener('click', () => act(breakEven));
  $('vp-cmp-run').addEventListener('click', () => act(compare));
  // WinPoker's keys: 1-5 hold a card, Enter or D deals, then draws
  document.addEventListener('keydown', (e) => {
    if (document.body.dataset.view !== 'vp' || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest && e.target.closest('input, select, textarea, button')) return;
    const pos = '12345'.indexOf(e.key);
    if (pos >= 0 && !vp.graded && vp.cards.length) {
      if (vp.held.has(pos)) vp.held.delete(pos); else vp.held.add(pos);
      renderCards();
    } else if (e.key === 'Enter' || e.key === 'd' || e.key === 'D') {
      e.preventDefault();
      act(vp.graded ? deal : draw);
    }
  });
}

let vpLoaded = false;
async function loadVp() {
  if (vpLoaded) return;
  vpLoaded = true;
  const rows = await api('vp/games');
  $('vp-game').replaceChildren(...rows.map((r) => el('option', { value: r.slug, text: r.name })));
  $('vp-cmp-games').replaceChildren(...rows.map((r) => el('option', { value: r.slug, text: r.name })));
  $('vp-game').value = vp.game;
  await chooseGame(vp.game);
}

// ------------------------------------------------------------------ tabs

function showView(name) {
  for (const t of document.querySelectorAll('.tab')) t.classList.toggle('active', t.dataset.view === name);
  for (const v of document.querySelectorAll('.view')) v.hidden = v.id !== `view-${name}`;
  document.body.dataset.view = name;
  if (name === 'vp') act(loadVp);
  if (name === 'hits' && !hits.answer.made.length) act(runHits);
}

document.addEventListener('DOMContentLoaded', () => {
  document.body.dataset.busy = '0';
  $('error-close').addEventListener('click', clearError);
  for (const t of document.querySelectorAll('.tab')) t.addEventListener('click', () => showView(t.dataset.view));
  initEquity(); initHits(); initVp();
  const start = (location.hash || '#equity').slice(1);
  showView(['equity', 'hits', 'vp'].includes(start) ? start : 'equity');
});
