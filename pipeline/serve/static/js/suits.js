// Two helpers of the Equity view's grid: the suit selector (one class's combos, from the
// server, each toggled in or out of the active seat's range) and saved named ranges (kept in the
// browser's localStorage; exported and imported as text, one "name = range" a line).

import { $, el, store } from './util.js';
import { api, act, ApiError } from './api.js';
import { eq, loadSeat, invalidate, showSeatText } from './equity.js';

const KEY = 'pokertables.ranges';
const SEP = ' = ';

export async function openSuits(name) {
  const i = eq.active; const seat = eq.seats[i];
  const a = await api('range/format', { range: seat.text.trim(), board: $('eq-board').value, dead: $('eq-dead').value, cell: name });
  const panel = $('eq-suits-panel'); panel.hidden = false; panel.dataset.cls = name;
  const brush = +$('eq-brush').value / 100 || 1;
  panel.replaceChildren(
    el('div', { class: 'suithead' }, el('b', { text: `${name}: pick combos` }),
      el('button', { class: 'link', type: 'button', text: '×', title: 'close', onclick: () => { panel.hidden = true; } })),
    el('div', { class: 'suitcombos' }, ...a.cell.combos.map((c) => el('button', {
      type: 'button', class: `combo${c.weight > 0 ? ' in' : ''}${c.live ? '' : ' dead'}`, dataset: { hand: c.hand, weight: c.weight },
      title: c.live ? (c.weight > 0 ? `in the range at ${c.weight}` : 'not in the range') : 'blocked by the board or dead cards',
      text: c.hand, onclick: () => act(async () => {
        invalidate();
        await loadSeat(i, [{ hand: c.hand.replace(' ', ''), weight: c.weight > 0 ? 0 : brush }]);
        await openSuits(name);
      }, $('eq-suits-panel')) }))));
}

const saved = () => store.get(KEY, {});

function renderSaved() {
  const names = Object.keys(saved()).sort();
  $('eq-saved').replaceChildren(el('option', { value: '', text: names.length ? 'saved ranges…' : 'no saved ranges' }),
    ...names.map((n) => el('option', { value: n, text: n })));
}

function saveRange() {
  const name = $('eq-save-name').value.trim();
  const text = eq.seats[eq.active].text.trim();
  if (!name || !text) throw new Error('name the range and give the seat a range first');
  store.set(KEY, { ...saved(), [name]: text });
  renderSaved(); $('eq-saved').value = name;
}

async function loadSaved() {
  const name = $('eq-saved').value; if (!name) return;
  const text = saved()[name];
  const i = eq.active; eq.seats[i].text = text; showSeatText(i);
  invalidate();
  await loadSeat(i);
}

function deleteSaved() {
  const name = $('eq-saved').value; if (!name) return;
  const all = saved(); delete all[name]; store.set(KEY, all); renderSaved();
}

function exportSaved() {
  $('eq-io').value = Object.entries(saved()).map(([n, t]) => `${n}${SEP}${t}`).join('\n');
  $('eq-io').hidden = false;
}

// Each line "name = range": checked by the server; the good lines are kept, the bad ones named.
async function importSaved() {
  const box = $('eq-io');
  if (box.hidden) { box.hidden = false; box.value = ''; box.focus(); return; }
  const all = saved(); const bad = [];
  for (const line of box.value.split('\n')) {
    const at = line.indexOf(SEP); if (at < 0) continue;
    const name = line.slice(0, at).trim(); const text = line.slice(at + SEP.length).trim();
    if (!name || !text) continue;
    try { await api('range/format', { range: text }); all[name] = text; } catch (e) { bad.push(`${name}: ${e.message}`); }
  }
  store.set(KEY, all); renderSaved();
  if (bad.length) throw new ApiError(`not imported: ${bad.join('; ')}`);
}

export function initSaved() {
  renderSaved();
  $('eq-save').addEventListener('click', () => act(async () => saveRange(), $('eq-save-name')));
  $('eq-saved').addEventListener('change', () => act(loadSaved, $('eq-saved')));
  $('eq-delete').addEventListener('click', deleteSaved);
  $('eq-export').addEventListener('click', exportSaved);
  $('eq-import').addEventListener('click', () => act(importSaved, $('eq-io')));
}
