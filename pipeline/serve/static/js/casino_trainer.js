// The casino trainer: the server deals a seeded hand at the game's first decision, the player
// picks an option, the server grades it with its exact cost against the best option (EV of
// every option, exact fractions). The session keeps the count of mistakes and their cost.

import { $, el, cardFace } from './util.js';
import { api, act } from './api.js';
import { cs, payEdits } from './casino.js';

const session = { hands: 0, mistakes: 0, cost: 0, deal: null };

export function resetTrainer() {
  Object.assign(session, { hands: 0, mistakes: 0, cost: 0, deal: null });
  $('cs-cards').replaceChildren(); $('cs-options').replaceChildren(); $('cs-point').textContent = '';
  $('cs-verdict').hidden = true;
  renderTally();
}

function renderTally() {
  $('cs-t-hands').textContent = String(session.hands);
  $('cs-t-mistakes').textContent = String(session.mistakes);
  $('cs-t-cost').textContent = `${session.cost.toFixed(6)} units`;
}

// The cards as the server wrote them ("As Kd 9c 5h 2s | Qd"): faces, a gap before the up card.
function drawCards(hand) {
  const box = $('cs-cards'); box.replaceChildren();
  hand.split(' | ').forEach((group, i) => {
    if (i) box.append(el('span', { class: 'method', text: i === 1 ? ' dealer shows ' : ' ' }));
    for (const c of group.split(' ')) box.append(cardFace(c));
  });
}

async function deal() {
  const seed = Number($('cs-seed').value) || 0;
  const d = await api('casino/deal', { game: cs.slug, seed, pay: payEdits() });
  session.deal = d;
  $('cs-seed').value = String(seed + 1);  // the next deal is a new hand
  drawCards(d.hand);
  $('cs-point').textContent = `${d.point}: your decision`;
  $('cs-verdict').hidden = true;
  const opts = $('cs-options'); opts.replaceChildren();
  for (const o of d.options) {
    opts.append(el('button', { type: 'button', class: 'option', text: o, dataset: { option: o },
      onclick: () => act(() => decide(o)) }));
  }
}

async function decide(option) {
  const d = session.deal;
  if (!d) return;
  const g = await api('casino/grade', { game: cs.slug, hand: d.hand, decision: option, pay: payEdits() });
  session.deal = null;
  for (const b of $('cs-options').querySelectorAll('button')) b.disabled = true;
  session.hands += 1;
  if (!g.optimal) { session.mistakes += 1; session.cost += g.cost; }
  renderTally();
  const v = $('cs-verdict');
  v.hidden = false;
  v.className = `verdict ${g.optimal ? 'good' : 'bad'}`;
  v.dataset.cost = g.cost_exact;
  v.replaceChildren(
    el('b', { text: g.optimal ? `${option}: the best decision` : `${option} costs ${g.cost.toFixed(6)} per unit (${g.cost_exact}); best: ${g.best}` }),
    el('table', { class: 'holds' }, ...g.options.map((o) => el('tr', { class: o.option === g.best ? 'best' : '' },
      el('td', { text: o.option }), el('td', { class: 'num', text: o.ev.toFixed(6) }), el('td', { class: 'num', text: o.ev_exact })))));
}

export function initCasinoTrainer() {
  $('cs-deal').addEventListener('click', () => act(deal));
}
