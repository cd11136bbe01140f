// The Casino games view: pick a game by name, edit a pay in place (the server solves the edited
// game exactly: house edge, element of risk and the return table follow), the strategies a
// person can use with their exact costs, and a printable one-page report. The trainer lives in
// casino_trainer.js. Nothing here counts or judges poker: every number is the server's.

import { $, el, pct, debounce } from './util.js';
import { api, act, newest } from './api.js';
import { initCasinoTrainer, resetTrainer } from './casino_trainer.js';

export const DEFAULT_CASINO = 'three-card-poker';
// {slug, games, pay: Map("table:label" -> text), analysis, strategy}
export const cs = { slug: DEFAULT_CASINO, games: [], pay: new Map(), analysis: null, strategy: null, loaded: false };

const askAnalysis = newest();
const askStrategy = newest();

// The pay edits as the API takes them ("ante bonus:straight=2").
export const payEdits = () => [...cs.pay.entries()].map(([k, v]) => `${k}=${v}`);

function fillGames(query = '') {
  const q = query.trim().toLowerCase();
  const pick = $('cs-game'); pick.replaceChildren();
  for (const g of cs.games) {
    const words = [g.name, g.game, ...g.aliases].join(' ').toLowerCase();
    if (q && !q.split(/\s+/).every((w) => words.includes(w))) continue;
    pick.append(el('option', { value: g.game, text: `${g.name} (${g.game})` }));
  }
  if ([...pick.options].some((o) => o.value === cs.slug)) pick.value = cs.slug;
}

async function chooseByName(text) {
  // the server resolves common names and aliases ("3cp", "caribbean stud")
  const rows = await api(`casino/games?q=${encodeURIComponent(text)}`);
  if (rows.length) { await setGame(rows[0].game); }
}

export async function setGame(slug) {
  cs.slug = slug; cs.pay.clear(); cs.analysis = null; cs.strategy = null;
  $('cs-game').value = slug;
  resetTrainer();
  await refresh();
}

function summaryRows(a) {
  const rows = [
    ['House edge', `${pct(a.house_edge, 4)} = ${a.house_edge_exact}`, 'house-edge'],
    ['Element of risk', pct(a.element_of_risk, 4), 'element-of-risk'],
    ['Average total bet', `${a.average_bet.toFixed(6)} ${a.base_bet === 'one bet' ? 'bets' : 'units'}`, 'average-bet'],
    ['Standard deviation', a.standard_deviation.toFixed(4), 'sd'],
    ['Deals counted', a.combinations.toLocaleString('en'), 'combinations'],
    ['Base bet', a.base_bet, 'base-bet'],
  ];
  return rows.map(([k, v, key]) => el('tr', {}, el('th', { text: k }), el('td', { text: v, dataset: { key } })));
}

function renderPayEditors(a) {
  const box = $('cs-pays'); box.replaceChildren();
  for (const t of a.pay_tables) {
    const table = el('table', { class: 'paytable' },
      el('thead', {}, el('tr', {}, el('th', { text: t.table }), el('th', { class: 'num', text: 'Pays' }))));
    const body = el('tbody');
    for (const ln of t.lines) {
      const key = `${t.table}:${ln.label}`;
      const meter = ln.meter_share !== '0';
      const shown = cs.pay.get(key) ?? (meter ? `${ln.meter_share} of meter` : ln.pays);
      const input = el('input', { class: 'pay', type: 'text', value: shown, 'aria-label': `pay of ${ln.label}`,
        dataset: { key } });
      if (meter) input.disabled = true;
      input.addEventListener('input', debounce(() => {
        if (input.value.trim() === '') cs.pay.delete(key); else cs.pay.set(key, input.value.trim());
        act(refresh, input);
      }));
      body.append(el('tr', {}, el('td', { text: ln.label }), el('td', { class: 'num' }, input)));
    }
    table.append(body);
    box.append(table);
  }
  if (a.meter) {
    const input = el('input', { class: 'pay', type: 'text', value: cs.pay.get('meter') ?? String(a.meter),
      'aria-label': 'meter', dataset: { key: 'meter' } });
    input.addEventListener('input', debounce(() => { cs.pay.set('meter', input.value.trim()); act(refresh, input); }));
    box.append(el('p', {}, 'Meter ', input));
  }
}

function renderReport() {
  const a = cs.analysis;
  $('cs-name').textContent = a.name;
  $('cs-source').textContent = a.source ? `published: ${a.source}` : '';
  $('cs-summary').replaceChildren(...summaryRows(a));
  const sheet = $('cs-paysheet'); sheet.replaceChildren();
  for (const t of a.pay_tables) {
    for (const ln of t.lines) {
      const pays = ln.meter_share !== '0' ? `${ln.meter_share} × meter (${a.meter.toLocaleString('en')})` : `${ln.pays} to 1`;
      sheet.append(el('tr', {}, el('td', { text: t.table }), el('td', { text: ln.label }), el('td', { class: 'num', text: pays })));
    }
  }
  const rt = $('cs-returns'); rt.replaceChildren(el('thead', {}, el('tr', {},
    el('th', { text: 'Outcome' }), el('th', { class: 'num', text: 'Net win' }), el('th', { class: 'num', text: 'Combinations' }),
    el('th', { class: 'num', text: 'Probability' }), el('th', { class: 'num', text: 'Return' }))));
  const body = el('tbody');
  for (const r of a.return_table) {
    body.append(el('tr', {}, el('td', { text: r.outcome }), el('td', { class: 'num', text: String(r.net_win) }),
      el('td', { class: 'num', text: r.combinations.toLocaleString('en'), dataset: { combinations: String(r.combinations) } }),
      el('td', { class: 'num', text: r.probability.toFixed(8) }), el('td', { class: 'num', text: r.contribution.toFixed(6) })));
  }
  body.append(el('tr', { class: 'total' }, el('td', { text: 'Total' }), el('td'),
    el('td', { class: 'num', text: a.combinations.toLocaleString('en') }), el('td', { class: 'num', text: '1' }),
    el('td', { class: 'num', text: (-a.house_edge).toFixed(6) })));
  rt.append(body);
}

function renderStrategy() {
  const box = $('cs-strategy'); box.replaceChildren();
  const s = cs.strategy;
  if (!s.strategies.length) { box.append(el('p', { class: 'method', text: 'No decision: a side bet.' })); return; }
  for (const st of s.strategies) {
    box.append(el('h3', { text: `${st.name}: house edge ${pct(st.house_edge, 4)}, costs ${(100 * st.cost).toFixed(6)} points (${st.cost_exact})`,
      dataset: { strategy: st.name, cost: st.cost_exact } }));
    box.append(el('ul', { class: 'rules' }, ...st.rules.map((r) => el('li', { text: r }))));
  }
}

// The current game (and its edits) analysed, then its strategies: each answer lands only if it
// is still the newest question.
export async function refresh() {
  const body = { game: cs.slug, pay: payEdits() };
  const a = await askAnalysis(api('casino/analyze', body));
  cs.analysis = a;
  document.body.dataset.casinoGame = a.name;
  renderReport();
  if (!document.activeElement || !document.activeElement.matches('#cs-pays input')) renderPayEditors(a);
  $('cs-strategy').replaceChildren(el('p', { class: 'method', text: 'strategies: scoring each exactly…' }));
  delete $('cs-strategy').dataset.game;
  cs.strategy = await askStrategy(api('casino/strategy', body));
  renderStrategy();
  $('cs-strategy').dataset.game = a.name;  // what the report now shows, whole
}

export function initCasino() {
  $('cs-search').addEventListener('change', () => act(() => chooseByName($('cs-search').value), $('cs-search')));
  $('cs-search').addEventListener('input', () => fillGames($('cs-search').value));
  $('cs-game').addEventListener('change', () => act(() => setGame($('cs-game').value)));
  $('cs-print').addEventListener('click', () => window.print());
  initCasinoTrainer();
}

export async function loadCasino() {
  if (cs.loaded) return;
  cs.games = await api('casino/games');
  fillGames();
  cs.loaded = true;
  await setGame(cs.slug);
}
