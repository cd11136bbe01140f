// The pokertables page (docs/serve.md): plain ES modules over the server's JSON API, no build
// step. The views draw the server's answers; none of them parses, counts or writes poker text.

import { $ } from './util.js';
import { api, act, clearError } from './api.js';
import { initEquity } from './equity.js';
import { initSaved } from './suits.js';
import { initHits, hitsState, runHits } from './hits.js';
import { initVp, loadVp } from './vp.js';
import { initCasino, loadCasino } from './casino.js';

const VIEWS = ['equity', 'hits', 'vp', 'casino'];

function showView(name) {
  for (const t of document.querySelectorAll('.tab')) t.classList.toggle('active', t.dataset.view === name);
  for (const v of document.querySelectorAll('.view')) v.hidden = v.id !== `view-${name}`;
  document.body.dataset.view = name;
  if (name === 'vp') act(loadVp);
  if (name === 'casino') act(loadCasino);
  if (name === 'hits' && !hitsState.answer) act(runHits);
}

async function start() {
  document.body.dataset.busy = '0';
  $('error-close').addEventListener('click', clearError);
  const empty = await api('range/format', { range: '' });  // the 169 cells in grid order, the deck
  initEquity(empty.cells, empty.deck);
  initSaved();
  initHits(empty.cells, empty.deck);
  initVp();
  initCasino();
  for (const t of document.querySelectorAll('.tab')) t.addEventListener('click', () => showView(t.dataset.view));
  const first = (location.hash || '#equity').slice(1);
  showView(VIEWS.includes(first) ? first : 'equity');
}

act(start);
