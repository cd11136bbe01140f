// The JSON API (docs/serve.md), the busy marker and where errors are shown: beside the control
// that caused them and in the sticky box at the top, which stays in view when the page scrolls.

import { $, el } from './util.js';

let pending = 0;
function setBusy(delta) {
  pending += delta;
  document.body.dataset.busy = String(pending);
  $('busy').hidden = pending === 0;
}

export class ApiError extends Error {}
// An answer to a question the page no longer asks (its inputs changed meanwhile): dropped.
export class Stale extends Error {}

export async function api(path, body) {
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

// Requests of one kind, numbered: ``ask(promise)`` settles only for the newest of them and
// throws Stale for an older one (its answer or its error), so neither lands beside inputs it
// was not asked for.
export function newest() {
  let n = 0;
  const ask = async (promise) => {
    const id = ++n;
    let v;
    try { v = await promise; } catch (e) { throw id === n ? e : new Stale(); }
    if (id !== n) throw new Stale();
    return v;
  };
  ask.drop = () => { n += 1; };  // every answer on its way is now stale
  return ask;
}

function fieldError(anchor, message) {
  if (!anchor) return;
  anchor.classList.add('invalid');
  const box = anchor.closest('td, label, .field') || anchor.parentElement;
  let slot = box.querySelector(':scope > .fielderr');
  if (!slot) { slot = el('span', { class: 'fielderr', role: 'alert' }); box.append(slot); }
  slot.textContent = message;
}

export function clearFieldError(anchor) {
  if (!anchor) return;
  anchor.classList.remove('invalid');
  const box = anchor.closest('td, label, .field') || anchor.parentElement;
  const slot = box && box.querySelector(':scope > .fielderr');
  if (slot) slot.remove();
}

export function showError(message, anchor = null) {
  $('error-text').textContent = message;
  $('error').hidden = false;
  fieldError(anchor, message);
  if (anchor) anchor.scrollIntoView({ block: 'nearest' });
}

export function clearError() { $('error').hidden = true; $('error-text').textContent = ''; }

// Run a user action: clear the old error, show a new one (the server's message) beside
// ``anchor`` if it fails; a stale answer is silently dropped.
export async function act(fn, anchor = null) {
  clearError();
  clearFieldError(anchor);
  try { return await fn(); } catch (e) {
    if (e instanceof Stale) return undefined;
    showError(e instanceof ApiError ? e.message : `page error: ${e.message}`, anchor);
    return undefined;
  }
}
