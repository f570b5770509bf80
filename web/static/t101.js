// Okey 101 at the web table: the melds on the table, the player's own
// line (how it opened, the selection read as melds toward the opening),
// the moves of 101 (lay, add, give back), the penalty question, and the
// round's panel. It draws what the process sends (state.r101) and sends
// back what the player asks for, as app.js does: it decides no rule.

import { el } from './dom.js';

let made = false;

// setup adds the 101 table's parts to the page once (hidden at a classic
// table).
function setup() {
  if (made) return;
  made = true;
  document.head.appendChild(el('link', { rel: 'stylesheet', href: '/t101.css' }));
  const centre = document.getElementById('centre');
  centre.after(el('div', { id: 'melds', class: 'r101' }));
  const msg = document.getElementById('msg');
  msg.before(el('div', { id: 'me101', class: 'r101' }));
  msg.after(el('div', { id: 'sel101', class: 'r101' }));
  const buttons = document.getElementById('buttons');
  const first = buttons.querySelector('[data-op=discard]');
  for (const op of ['giveback', 'lay', 'add', 'clear']) {
    first.before(el('button', { 'data-op': op, class: 'r101' }));
  }
  document.body.appendChild(el('div', { id: 'ask', hidden: '' },
    el('div', { id: 'ask-box' }, el('p', { id: 'ask-text' }),
      el('button', { id: 'ask-yes', 'data-op': 'yes' }), el('button', { id: 'ask-no', 'data-op': 'no' }))));
}

// draw101 draws the 101 parts of the state (or hides them at a classic
// table); tile is app.js's tile drawing.
export function draw101(st, tile) {
  const r = st.r101;
  if (!r && !made) return;
  setup();
  document.body.classList.toggle('is101', !!r);
  if (!r) return;
  const L = st.labels;
  const melds = document.getElementById('melds');
  const key = JSON.stringify(r.melds || []) + L.nomelds;
  if (melds.dataset.key !== key) {
    melds.dataset.key = key;
    melds.replaceChildren();
    if (!r.melds || r.melds.length === 0) melds.appendChild(el('div', { class: 'none', text: L.nomelds }));
    for (const m of r.melds || []) {
      const row = el('div', { class: 'meld' + (m.mine ? ' mine' : ''), 'data-meld': String(m.meld) },
        el('span', { class: 'handle', text: m.handle }), el('span', { class: 'owner', text: m.owner }));
      for (const sp of m.tiles) {
        const t = tile(sp.f, 'small');
        if (sp.t) { t.title = sp.t; t.dataset.as = sp.t; }
        row.appendChild(t);
      }
      melds.appendChild(row);
    }
  }
  document.getElementById('me101').textContent = r.me;
  document.getElementById('sel101').textContent = r.sel || '';
  document.getElementById('stock-label').textContent = L.bank;
  document.getElementById('take-label').textContent = L.prev;
  for (const b of document.querySelectorAll('#buttons button.r101')) {
    const op = b.dataset.op;
    b.textContent = L[op];
    const a = st.actions[op];
    if (a) {
      b.classList.toggle('on', a.on);
      b.title = a.off || '';
    }
    if (op === 'clear') b.disabled = !(st.rack || []).some((t) => t.sel);
  }
  const ask = document.getElementById('ask');
  ask.hidden = !r.question;
  document.getElementById('ask-text').textContent = r.question || '';
  document.getElementById('ask-yes').textContent = L.yes;
  document.getElementById('ask-no').textContent = L.no;
}

// key101 plays a key as the terminal's 101 table does; it returns false
// for the keys both games share.
export function key101(ev, st, send) {
  const r = st.r101;
  if (!r) return false;
  if (r.question) {
    if (ev.key === 'y' || ev.key === 'Enter') send('yes');
    else send('no');
    return true;
  }
  const ops = { ' ': 'select', c: 'clear', Escape: 'clear', l: 'lay', a: 'add', b: 'giveback', m: 'liftcur', Enter: 'liftcur' };
  const o = ops[ev.key];
  if (o) { send(o); return true; }
  // A meld's handle: 1-9, then A-Z.
  const handles = '123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const i = ev.key.length === 1 ? handles.indexOf(ev.key) : -1;
  if (i >= 0) { send('addto', 0, i); return true; }
  return false;
}

// drop101 is a tile dragged from rack position pos and dropped over the
// elements under: onto a meld it is added to it (or swapped for its
// okey), onto the table's melds it lays the selection.
export function drop101(st, pos, under, send) {
  if (!st.r101) return false;
  const m = under.find((e) => e.dataset && e.dataset.meld !== undefined);
  if (m) { send('dropmeld', pos, Number(m.dataset.meld)); return true; }
  if (under.some((e) => e.id === 'melds')) { send('droplay', pos); return true; }
  return false;
}

// panel101 draws a 101 round's panel into box: how it ended, every seat's
// points with their causes and rack, the score table, the foot.
export function panel101(box, st, tile) {
  const e = st.handEnd.r101;
  box.appendChild(el('p', { class: 'head', text: e.head }));
  const seats = el('table', { class: 'seats101' });
  for (const s of e.seats) {
    const rack = el('td', { class: 'rack101' });
    if (s.empty) rack.textContent = s.empty;
    for (const f of s.rack) rack.appendChild(tile(f, 'small'));
    seats.appendChild(el('tr', {}, el('td', { text: s.name }), el('td', { text: s.points }),
      el('td', { text: `${st.labels.total} ${s.total}` }), el('td', { text: s.causes }), rack));
  }
  box.appendChild(seats);
  const scores = el('table', { class: 'scores101' });
  scores.appendChild(el('tr', {}, ...e.header.map((h) => el('th', { text: h }))));
  for (const row of e.results || []) scores.appendChild(el('tr', {}, ...row.map((c) => el('td', { text: c }))));
  box.appendChild(scores);
  box.appendChild(el('p', { class: 'foot', text: e.foot }));
}
