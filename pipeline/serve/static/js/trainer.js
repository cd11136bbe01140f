// The video-poker trainer: deal from a seed, hold, Draw plays the hand out (the server's
// `vp draw`: replacement cards from the same seeded deck on 1 to 100 lines, final hands, pays in
// credits), a credit meter, the session's stats (the server's exact tally, per game version),
// mistakes to replay, an optional tutor that warns before a costly draw, and feedback in credits
// of the bet and in %, with the exact fractions on demand.

import { $, el, pct, cardFace, count, faceText } from './util.js';
import { api, act, ApiError } from './api.js';
import { vp, ready, check } from './vp.js';

const MAX_DEALS = 10000;
const START_CREDITS = 1000;
const tr = { seed: null, deals: [], hand: 0, cards: [], held: new Set(), state: 'idle', credits: START_CREDITS,
  played: new Map(), mistakes: [], warned: null, tutor: null, replay: null, version: null, charged: 0 };

const lines = () => +$('vp-lines').value;
const coins = () => +$('vp-coins').value;
const denom = () => +$('vp-denom').value;
// ``x`` per coin of one line in credits of a ``stake``-credit bet: "2.50 credits" (the verdict's
// and the Tutor's figures, one computation).
const inCredits = (x, stake) => count(x * stake, 'credit', (x * stake).toFixed(2));
const money = (credits) => `$${(credits * denom()).toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

function renderMeter() {
  $('vp-credits').textContent = count(tr.credits, 'credit');
  $('vp-credits').dataset.value = tr.credits;
  $('vp-money').textContent = money(tr.credits);
  $('vp-bet').textContent = `bet ${count(coins() * lines(), 'credit')} (${count(coins(), 'coin')} × ${count(lines(), 'line')})`;
}

// The stats of the current version's hands: the server adds the exact fractions.
async function renderTally() {
  const v = vp.current; if (!v) return;
  const hands = tr.played.get(v.id) || [];
  const t = await api('vp/tally', { hands });
  if (vp.current !== v) return;
  const set = (id, text, value) => { $(id).textContent = text; $(id).dataset.value = value ?? ''; };
  set('vp-t-game', v.name || '…', v.id);
  set('vp-t-hands', String(t.hands), t.hands);
  set('vp-t-mistakes', String(t.mistakes), t.mistakes);
  set('vp-t-cost', t.hands ? `${count(t.cost, 'credit', t.cost.toFixed(2))} (${t.cost_percent.toFixed(2)}% of ${t.bet} bet)` : '0', t.cost_exact);
  set('vp-t-ret', t.hands ? pct(t.return_achieved, 3) : '–', t.return_achieved_exact);
  set('vp-t-opt', t.hands ? pct(t.return_optimal, 3) : '–', t.return_optimal_exact);
  set('vp-t-act', t.hands ? `${pct(t.return_actual, 1)} (${t.won} won of ${t.bet})` : '–', t.return_actual_exact);
  const others = [...tr.played.entries()].filter(([id, h]) => id !== v.id && h.length)
    .map(([id, h]) => `${vp.versions.get(id).name}: ${count(h.length, 'hand')}`);
  $('vp-t-others').textContent = others.length ? `Other versions: ${others.join('; ')}` : '';
  $('vp-stats').textContent = t.hands ? `${v.name} · ${count(t.hands, 'hand')} · ${count(t.mistakes, 'mistake')} · cost ${count(t.cost, 'credit', t.cost.toFixed(2))} (${t.cost_percent.toFixed(2)}%) · your holds return ${pct(t.return_achieved, 2)} of ${pct(t.return_optimal, 2)} possible · paid ${pct(t.return_actual, 1)}`
    : `${v.name || '…'} · no hands yet: Deal, click cards to hold, Draw`;
}

// Another version current: the last hand's verdict and its 32 holds' EVs are the old version's
// figures, cleared as the other panels' results are (its cards and pay stay: what happened).
export function versionChanged(v) {
  tr.warned = null; tr.tutor = null; $('vp-tutor-msg').hidden = true;  // the Tutor graded under the old one
  if ($('vp-verdict').dataset.version && $('vp-verdict').dataset.version !== v.id) {
    for (const id of ['vp-verdict', 'vp-holds', 'vp-tutor-msg']) $(id).hidden = true;
    delete $('vp-verdict').dataset.version;
  }
  renderTally();
}

function renderCards(cards, { final = false } = {}) {
  const box = $('vp-cards'); box.replaceChildren();
  cards.forEach((card, i) => {
    const held = tr.held.has(i);
    const c = el('div', { class: `vpcard${held ? ' held' : ''}${final && !held ? ' drawn' : ''}`, dataset: { pos: i, card } },
      el('div', { class: 'holdtag', text: 'HELD' }), cardFace(card, 'big'));
    c.addEventListener('click', () => toggle(i));
    box.append(c);
  });
}

function toggle(i) {
  if (tr.state !== 'dealt') return;
  if (tr.held.has(i)) tr.held.delete(i); else tr.held.add(i);
  tr.warned = null; $('vp-tutor-msg').hidden = true;
  renderCards(tr.cards);
}

async function deal() {
  const seed = +$('vp-seed').value;
  if (seed !== tr.seed) { tr.seed = seed; tr.deals = []; tr.hand = 0; }
  let n;
  if (tr.replay) { n = tr.replay; tr.replay = null; } else { tr.hand += 1; n = tr.hand; }
  if (n > tr.deals.length) {
    // `vp deal --seed S --count N`: hand n of the session is the n-th deal of that command
    const count = Math.min(MAX_DEALS, Math.max(10, 2 * n));
    tr.deals = (await api('vp/deal', { paytable: vp.slug, seed, count })).deals;
  }
  tr.n = n;
  tr.cards = tr.deals[n - 1].split(' ');
  tr.held = new Set(); tr.state = 'dealt'; tr.warned = null;
  tr.charged = coins() * lines(); tr.credits -= tr.charged; renderMeter();
  renderCards(tr.cards);
  $('vp-hand-no').textContent = `hand ${n} of seed ${seed}`;
  for (const id of ['vp-verdict', 'vp-holds', 'vp-tutor-msg']) $(id).hidden = true;
  $('vp-lines-box').replaceChildren(); $('vp-result').textContent = '';
  $('vp-draw').disabled = false;
}

// A hold as a player sees it on the cards: "J♠ J♦ (cards 1 and 4)", "draw five (keep no card)".
// After the draw the final hand is on screen, where a card the hold did not keep was replaced:
// `dealt` says the positions are the dealt hand's ("J♠ J♦ (dealt cards 1 and 4)").
function holdWords(hold, cards, { dealt = false } = {}) {
  const held = hold === 'draw five' ? [] : hold.split(' ');
  if (!held.length) return 'draw five (keep no card)';
  const pos = held.map((c) => cards.indexOf(c) + 1);
  const list = pos.length > 1 ? `${pos.slice(0, -1).join(', ')} and ${pos[pos.length - 1]}` : String(pos[0]);
  return `${held.map(faceText).join(' ')} (${dealt ? 'dealt ' : ''}${pos.length > 1 ? 'cards' : 'card'} ${list})`;
}

// The dealt hand as faces, the cards ``held`` (0-based positions) marked: what the verdict's
// positions count on once the final hand has replaced it on screen.
const dealtHand = (cards, held) => el('div', { class: 'vdeal', dataset: { deal: cards.join(' ') } }, 'Dealt: ',
  ...cards.flatMap((c, i) => [i ? ' ' : null, el('span', { class: `face suit-${c[1]}${held.includes(i) ? ' kept' : ''}`, text: faceText(c) })]));

const holdText = () => (tr.held.size ? [...tr.held].sort().map((i) => i + 1).join(',') : 'none');

async function draw() {
  if (tr.state !== 'dealt') return;
  const v = await ready('The draw');
  const hold = holdText();
  if ($('vp-tutor').checked && tr.warned !== hold) {
    const g = check(v, await api('vp/grade', { deal: tr.cards.join(' '), hold: hold === 'none' ? 'none' : [...tr.held].sort().map((i) => tr.cards[i]).join(' '), paytable: v.slug, pay: v.pay }));
    if (!g.optimal) {
      tr.warned = hold; tr.tutor = g;
      renderTutor();
      // at 1280x800 the warning opened below the cards with only its first line in the window
      $('vp-tutor-msg').scrollIntoView({ block: 'nearest' });
      return;
    }
  }
  tr.state = 'drawing'; $('vp-draw').disabled = true;
  const d = check(v, await api('vp/draw', { paytable: v.slug, pay: v.pay, seed: tr.seed, hand: tr.n, hold, lines: lines(), coins: coins() }));
  tr.state = 'done';
  // the deal charged the bet of its moment; Coins or Lines changed before the draw play another
  // bet, so the meter settles the difference: a hand costs exactly the bet it was played for
  tr.credits += tr.charged - d.bet + d.won; tr.charged = d.bet; renderMeter();
  renderCards(d.lines[0].final.split(' '), { final: true });
  if (tr.tutor && tr.warned === hold) renderTutor({ drawn: true });  // the warning, now of a played hand
  showLines(d);
  const g = d.grade;
  const stake = d.bet;
  const list = tr.played.get(v.id) || [];
  list.push({ ev_exact: g.ev_exact, best_ev_exact: g.best_ev_exact, coins: d.coins, lines: d.lines.length, won: d.won });
  tr.played.set(v.id, list);
  if (!g.optimal) {
    tr.mistakes.push({ seed: d.seed, hand: d.hand, deal: d.deal, hold: g.hold, best: g.best_hold, cost: g.cost * stake, version: v.id, name: v.name });
    renderMistakes();
  }
  verdict(v, d, g, stake);
  // on a short window (1024x768) the verdict fell below the fold but for its first line: the
  // least scroll that shows it whole, none when it already is; again once the session's line
  // above it is redrawn (at 1280 px the first hand's line wraps and pushes the verdict down)
  const showVerdict = () => $('vp-verdict').scrollIntoView({ block: 'nearest' });
  showVerdict();
  await Promise.all([renderTally().finally(showVerdict), holdsTable(v, d)]);
}

// The Tutor's warning, its cost in credits of the bet now chosen: the grade is per coin of one
// line, so Coins or Lines changed while it waits for the draw re-scale it (never the old bet's
// figure beside the new inputs; once drawn it names the bet it was given for, in the past tense:
// "Draw again" is stale once the final hand replaced the dealt one, whose places it then counts).
function renderTutor({ drawn = false } = {}) {
  const m = $('vp-tutor-msg'), g = tr.tutor;
  const stake = coins() * lines();
  m.hidden = false;
  Object.assign(m.dataset, { costExact: g.cost_exact, stake, drawn });
  const best = holdWords(g.best_hold, tr.cards, { dealt: drawn });
  m.replaceChildren(`Tutor: the best hold ${drawn ? 'was' : 'is'} ${best}; yours ${drawn ? 'cost' : 'costs'} `,
    el('b', { class: 'cost', text: inCredits(g.cost, stake) }),
    ` of your ${stake}-credit bet (${count(coins(), 'coin')} × ${count(lines(), 'line')}).`
    + (drawn ? ' You drew yours anyway: the verdict is below.' : ' Draw again to play yours.'));
}

function showLines(d) {
  const first = d.lines[0];
  // the cards on screen are line 1's: with more lines its result is labelled as that line's, so
  // "no win" never stands unqualified beside the lines' total won
  const own = first.hand ? `${first.hand}: pays ${count(first.won, 'credit')}` : 'no win';
  $('vp-result').textContent = d.lines.length > 1 ? `Line 1 (the cards above): ${own};` : own;
  $('vp-result').dataset.won = d.won;
  const box = $('vp-lines-box'); box.replaceChildren();
  $('vp-lines-sum').textContent = d.lines.length > 1 ? `${count(d.lines.length, 'line')} won ${count(d.won, 'credit')} of ${d.bet} bet; expected ${d.expected.toFixed(2)} (exact ${d.expected_exact})` : '';
  $('vp-lines-sum').dataset.won = d.won; $('vp-lines-sum').dataset.expectedExact = d.expected_exact;
  if (d.lines.length === 1) return;
  d.lines.forEach((ln, i) => box.append(el('div', { class: `line${ln.won ? ' win' : ''}`, dataset: { won: ln.won, final: ln.final } },
    el('span', { class: 'lno', text: String(i + 1) }), el('span', { class: 'lcards', text: ln.final }),
    el('span', { class: 'lpay', text: ln.hand ? `${ln.hand} ${ln.won}` : '' }))));
}

function verdict(v, d, g, stake) {
  const el2 = $('vp-verdict');
  el2.hidden = false;
  el2.className = `verdict ${g.optimal ? 'good' : 'bad'}`;
  Object.assign(el2.dataset, { costExact: g.cost_exact, bestHold: g.best_hold, optimal: g.optimal, game: d.name, version: v.id });
  const dealt = d.deal.split(' ');
  const name = (h) => holdWords(h, dealt, { dealt: true });  // the faces and their places in the deal
  const credits = (x) => inCredits(x, stake);
  // Each figure is rounded on its own, so the rounded worths can differ by a cent more or less
  // than the rounded cost (best 4.1249 shows 4.12, yours 1.2651 shows 1.27, cost 2.8598 shows
  // 2.86). The cost stays the exact cost rounded (the Tutor's, the mistakes list's and the
  // tally's figure) and, when the worths shown differ by another amount, says so; every figure
  // has its unrounded value in a tooltip.
  const cents = (x) => Math.round(Number((x * stake).toFixed(2)) * 100);
  const gap = cents(g.best_ev) - cents(g.ev);
  const unrounded = (x) => `${(x * stake).toFixed(6)} credits before rounding`;
  const figure = (x, cls) => el('b', { class: cls, title: unrounded(x), text: credits(x) });
  const line = d.chart_line;
  el2.dataset.chartLine = line.line;
  el2.replaceChildren(
    el('div', { class: 'vgame', text: `graded under ${d.name}` }),
    dealtHand(dealt, d.held.map((p) => p - 1)),
    el('strong', { text: g.optimal ? 'Correct.' : 'Mistake.' }), ' ',
    g.optimal ? `Holding ${name(g.hold)} is the best play: it returns ${credits(g.ev)} on average for your ${stake}-credit bet (${pct(g.ev / 1, 1)} of it).`
      : el('span', {}, `You held ${name(g.hold)}, worth `, figure(g.ev, 'ev'), ' on average. Best: ',
        el('b', { class: 'besthold', text: name(g.best_hold) }), ', worth ', figure(g.best_ev, 'bestev'), '. Cost ',
        figure(g.cost, 'cost'), ` of your ${stake}-credit bet (${pct(g.cost, 2)} of it; hold ranked ${g.rank} of 32).`,
        gap === cents(g.cost) ? null : el('span', { class: 'rounding', text: ` Each figure is rounded on its own: the cost is `
          + `${(g.cost * stake).toFixed(4)} credits, though the worths shown differ by ${(gap / 100).toFixed(2)}.` })),
    el('div', { class: 'chartline' }, `The chart decides this hand on line ${line.line}: `, el('b', { text: line.hold }), '.'),
    el('details', { class: 'exact' }, el('summary', { text: 'exact fractions' }),
      el('div', { text: `EV per coin of your hold ${g.ev_exact}; best ${g.best_ev_exact}; cost ${g.cost_exact} per coin` })));
}

async function holdsTable(v, d) {
  const h = check(v, await api('vp/hold', { deal: d.deal, paytable: v.slug, pay: v.pay }));
  if (vp.current !== v) return;  // another version since: its figures would be stale
  const body = $('vp-holds').querySelector('tbody'); body.replaceChildren();
  // the credits columns are for the coins this hand was played with, whatever Coins says later
  $('vp-holds-coins').textContent = count(d.coins, 'coin');
  h.holds.forEach((r, i) => {
    const played = r.positions.join(',') === d.held.join(',');
    body.append(el('tr', { class: `${r.best ? 'best' : ''}${played ? ' played' : ''}`, dataset: { evExact: r.ev_exact, hold: r.hold } },
      el('td', { text: String(i + 1) }), el('td', { text: r.hold }),
      el('td', { class: 'num', text: (r.ev * d.coins).toFixed(3) }), el('td', { class: 'num', text: r.cost ? (r.cost * d.coins).toFixed(3) : '' }),
      el('td', { class: 'num exact', text: r.ev_exact })));
  });
  $('vp-holds').hidden = false;
}

function renderMistakes() {
  $('vp-mistakes').replaceChildren(...tr.mistakes.map((m, i) => el('li', { dataset: { seed: m.seed, hand: m.hand } },
    `Dealt ${m.deal.split(' ').map(faceText).join(' ')}: held ${holdWords(m.hold, m.deal.split(' '), { dealt: true })}, `
    + `best ${holdWords(m.best, m.deal.split(' '), { dealt: true })} (−${count(m.cost, 'credit', m.cost.toFixed(2))}, ${m.name}) `,
    el('button', { class: 'small', type: 'button', text: 'Replay', onclick: () => act(() => replay(i)) }))));
}

async function replay(i) {
  const m = tr.mistakes[i];
  $('vp-seed').value = String(m.seed);
  if (m.seed !== tr.seed) { tr.seed = m.seed; tr.deals = []; tr.hand = 0; }
  tr.replay = m.hand;
  await deal();
}

export function initTrainer() {
  renderMeter();
  $('vp-deal').addEventListener('click', () => act(deal, $('vp-deal')));
  $('vp-draw').addEventListener('click', () => act(draw, $('vp-draw')));
  $('vp-t-reset').addEventListener('click', () => { tr.played = new Map(); tr.mistakes = []; tr.credits = START_CREDITS; renderMeter(); renderMistakes(); act(renderTally); });
  for (const id of ['vp-lines', 'vp-coins', 'vp-denom']) $(id).addEventListener('change', renderMeter);
  for (const id of ['vp-lines', 'vp-coins']) {
    $(id).addEventListener('change', () => { if (tr.state === 'dealt' && tr.tutor && !$('vp-tutor-msg').hidden) renderTutor(); });
  }
  // WinPoker's keys: 1-5 hold a card, Enter or D deals, then draws
  document.addEventListener('keydown', (e) => {
    if (document.body.dataset.view !== 'vp' || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest && e.target.closest('input, select, textarea, button')) return;
    const pos = '12345'.indexOf(e.key);
    if (pos >= 0) toggle(pos);
    else if (e.key === 'Enter' || e.key === 'd' || e.key === 'D') {
      e.preventDefault();
      act(tr.state === 'dealt' ? draw : deal);
    }
  });
}

export { ApiError };
