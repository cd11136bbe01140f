// Small DOM helpers shared by the views: element building, percentages, debouncing, card faces.
// Nothing here knows poker: a card is drawn from its two-character text as the server wrote it.

export const $ = (id) => document.getElementById(id);

export const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else e.setAttribute(k, v);
  }
  for (const kid of kids) if (kid != null) e.append(kid);
  return e;
};

export const pct = (x, digits = 3) => (x == null ? '–' : `${(100 * x).toFixed(digits)}%`);

// "1 hand", "2 hands", "1,326 hands", "4.5 combos": a count and its word, singular only for
// exactly one. `shown` is the number as text when it differs from String(n) (toFixed, locale).
export const count = (n, word, shown = null, plural = `${word}s`) =>
  `${shown ?? (typeof n === 'number' ? n.toLocaleString('en') : n)} ${Number(n) === 1 ? word : plural}`;

export const DEBOUNCE_MS = 350;
export const debounce = (fn, ms = DEBOUNCE_MS) => {
  let t = null;
  return (...args) => { clearTimeout(t); t = setTimeout(() => fn(...args), ms); };
};

export const SUIT_SYMBOL = { s: '♠', h: '♥', d: '♦', c: '♣' };

// A card face from the server's text ("Ah", "Td", "Jk").
export function cardFace(card, extra = '') {
  if (card === 'Jk') return el('span', { class: `card joker ${extra}`, text: 'Jk', dataset: { card } });
  return el('span', { class: `card suit-${card[1]} ${extra}`, dataset: { card } },
    card[0] === 'T' ? '10' : card[0], el('small', { text: SUIT_SYMBOL[card[1]] }));
}

// A card as its face reads: "J♠", "10♦", "joker".
export const faceText = (card) => (card === 'Jk' ? 'joker' : `${card[0] === 'T' ? '10' : card[0]}${SUIT_SYMBOL[card[1]]}`);

// Keep a value in the browser (localStorage), as JSON.
export const store = {
  get(key, fallback) {
    try { const v = localStorage.getItem(key); return v == null ? fallback : JSON.parse(v); } catch { return fallback; }
  },
  set(key, value) { localStorage.setItem(key, JSON.stringify(value)); },
};
