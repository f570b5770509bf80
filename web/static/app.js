// okey's web table: it draws the state the player's own okey process sends
// (the model of the seat's view) and sends back what the player asks for.
// Every word on the page comes from the process (state.labels), in the
// player's language; the page decides no rule.

import { draw101, drop101, key101, panel101 } from './t101.js';
import { drawBoard, keyBoard } from './board.js';
import { drawChat, initChat, keyChat } from './chat.js';
import { $ } from './dom.js';

let st = null;
let ws = null;
let drag = null; // {pos, el, x, y, moved}

// now is the machine's clock in ms (the figures compare pages and the
// process by it).
const now = () => performance.timeOrigin + performance.now();
// stamp keeps when something first happened, for the figures.
function stamp(k) { if (!document.body.dataset[k]) document.body.dataset[k] = String(now()); }

// A socket that drops while the process still serves the table is opened
// again: after 250 ms, then twice as long each time up to 4 s; the server
// sends the table's state as it is on every new socket. Only a closing the
// process meant (the player left, the table ended: a normal closure) ends
// the page.
const backoff = { first: 250, cap: 4000 };
let retries = 0; // failed openings since the socket last dropped
let retry = null;
let drawnRack = -1; // the rack's count last drawn

function connect() {
  retry = null;
  ws = new WebSocket(`ws://${location.host}/ws`);
  ws.onopen = () => {
    stamp('wsOpenAt');
    retries = 0;
    document.body.classList.remove('reconnecting', 'gone');
    document.body.dataset.opens = String(Number(document.body.dataset.opens || 0) + 1);
  };
  // Each state is drawn as it comes (the drawing only touches what changed,
  // and the process sends states that came together as one): no timer in
  // between, which a background tab would hold back.
  ws.onmessage = (ev) => {
    const recvAt = now();
    stamp('firstStateAt');
    st = JSON.parse(ev.data);
    draw();
    stamp('firstDrawAt');
    // When the rack last changed its count (a move shown) and when the
    // state that changed it came, for the figures.
    const n = (st.rack || []).length;
    if (n !== drawnRack) {
      document.body.dataset.rackAt = String(now());
      document.body.dataset.rackRecvAt = String(recvAt);
    }
    drawnRack = n;
    if (n > 0) stamp('dealtAt');
    document.body.dataset.seq = String(Number(document.body.dataset.seq || 0) + 1);
  };
  ws.onclose = (ev) => {
    if (ev.code !== 1000 && !(st && st.left)) { reconnect(); return; }
    // A table opened from the lobby goes back to it when it ends.
    if (location.pathname === '/table') { setTimeout(() => location.assign('/'), 300); return; }
    document.body.classList.add('gone');
    // The player's own leave keeps its last word (the match is saved).
    if (st && !st.left) $('msg').textContent = st.labels.disconnected;
  };
}

// reconnect opens the socket again after the backoff, saying so on the
// message line; after a few failed tries it also says the process may be
// gone (and goes on trying).
function reconnect() {
  if (retry) return;
  // A table opened from the lobby that cannot be found again has ended
  // meanwhile: back to the lobby.
  if (location.pathname === '/table' && retries >= 3) { location.assign('/'); return; }
  const wait = Math.min(backoff.cap, backoff.first * 2 ** retries);
  retries++;
  document.body.classList.add('reconnecting');
  document.body.classList.toggle('gone', retries > 5);
  if (st) $('msg').textContent = retries > 5 ? `${st.labels.disconnected} · ${st.labels.reconnecting}` : st.labels.reconnecting;
  $('msg').classList.add('bad');
  retry = setTimeout(connect, wait);
}

function send(op, slot = 0, to = 0) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ op, slot, to }));
  document.body.dataset.sentAt = String(now());
}
// The chat's commands carry their own fields (chat.js).
initChat((c) => { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(c)); });

// tile draws a face: colour, number, the false joker, the okey marked.
function tile(f, cls = '') {
  const el = document.createElement('div');
  el.className = 'tile ' + cls;
  if (!f) {
    el.classList.add('back');
    return el;
  }
  el.dataset.face = f.s;
  if (f.fj) {
    el.classList.add('fj');
    el.innerHTML = '<span class="num">&#9733;</span>';
  } else {
    el.classList.add('c' + f.c);
    const n = document.createElement('span');
    n.className = 'num';
    n.textContent = String(f.n);
    el.appendChild(n);
    const dot = document.createElement('span');
    dot.className = 'dot';
    el.appendChild(dot);
  }
  if (f.okey) el.classList.add('okey');
  el.title = f.s;
  return el;
}

function text(el, s) { s = s || ''; if (el.textContent !== s) el.textContent = s; }

function drawSeat(where, se) {
  const el = $('seat-' + where);
  // A seat is drawn again only when it changed (a move elsewhere leaves
  // the other seats as they were).
  const key = se ? JSON.stringify(se) + st.labels.dealer + st.labels.shown + st.labels.tiles + st.labels.score : '';
  if (el.dataset.key === key && el.dataset.key !== undefined) return;
  el.dataset.key = key;
  el.replaceChildren();
  if (!se) { el.hidden = true; return; }
  el.hidden = false;
  el.dataset.seat = String(se.seat);
  el.classList.toggle('turn', !!se.turn);
  const head = document.createElement('div');
  head.className = 'name';
  head.textContent = se.name + (se.dealer ? ' · ' + st.labels.dealer : '') + (se.shown ? ' ' + st.labels.shown : '');
  const info = document.createElement('div');
  info.className = 'info';
  info.textContent = se.word || `${st.labels.tiles} ${se.tiles} · ${st.labels.score} ${se.score}`;
  const pile = document.createElement('div');
  pile.className = 'pile';
  const shown = se.pile.slice(-4);
  if (se.pile.length > shown.length) {
    const more = document.createElement('span');
    more.className = 'more';
    more.textContent = '+' + (se.pile.length - shown.length);
    pile.appendChild(more);
  }
  for (const f of shown) pile.appendChild(tile(f, 'small'));
  el.append(head, info, pile);
  if (se.open) {
    // Seen from no seat: the rack as the table opened it.
    const open = document.createElement('div');
    open.className = 'open';
    for (const f of se.open) open.appendChild(tile(f, 'small'));
    el.appendChild(open);
  } else if (!se.me) {
    const backs = document.createElement('div');
    backs.className = 'backs';
    for (let i = 0; i < Math.min(se.tiles, 15); i++) backs.appendChild(tile(null, 'mini'));
    el.appendChild(backs);
  }
}

// drawLinks shows how this peer reaches each other seat in a LAN match
// (direct, relayed, through a member, reconnecting; the round-trip time).
function drawLinks(links, L) {
  const el = $('links');
  el.hidden = !links.length;
  const parts = [];
  if (links.length) {
    const head = document.createElement('span');
    head.textContent = L.links + ':';
    parts.push(head);
  }
  for (const k of links) {
    const s = document.createElement('span');
    s.className = 'link ' + (k.kind || 'none');
    s.dataset.name = k.name;
    s.textContent = `${k.name} ${k.text}`;
    parts.push(s);
  }
  el.replaceChildren(...parts);
}

function draw() {
  const L = st.labels;
  document.documentElement.lang = st.lang;
  document.title = L.title;
  text($('context'), st.context);
  text($('hand'), st.hand ? `#${st.hand}` : '');
  text($('turn'), st.turn);
  $('turn').className = 'whose' + st.whose;
  text($('timer'), st.timer >= 0 ? `${L.timer} ${st.timer}` : '');
  $('timer').classList.toggle('low', st.timer >= 0 && st.timer <= 5);
  text($('leave'), L.leave);
  drawLinks(st.links || [], L);
  text($('msg'), st.msg);
  $('msg').classList.toggle('bad', !!st.msgBad);
  text($('ind-label'), L.indicator);
  text($('stock-label'), `${L.stock} ${st.stock}`);
  text($('take-label'), L.take);
  text($('discard-label'), L.discard);
  text($('log-label'), L.log);
  text($('keys'), L.keys);
  $('indicator').replaceChildren(...(st.indicator ? [tile(st.indicator)] : []));
  $('take').replaceChildren(...(st.take ? [tile(st.take)] : []));
  $('take').classList.toggle('on', !!(st.actions.take && st.actions.take.on));
  $('stock').classList.toggle('on', !!(st.actions.draw && st.actions.draw.on));
  $('discard').classList.toggle('on', !!(st.actions.discard && st.actions.discard.on));

  // The other seats as on a real table: the next one on the right, the one
  // you take from on the left.
  const n = st.seats.length;
  const at = (k) => st.seats[(st.me + k) % n];
  drawSeat('bottom', n ? at(0) : null);
  drawSeat('right', n > 1 ? at(1) : null);
  drawSeat('top', n > 3 ? at(2) : (n === 3 ? null : null));
  drawSeat('left', n > 2 ? at(n - 1) : null);
  if (n === 3) drawSeat('top', null);
  if (n === 2) { drawSeat('top', at(1)); drawSeat('right', null); drawSeat('left', null); }

  for (const b of document.querySelectorAll('#buttons button')) {
    const op = b.dataset.op;
    text(b, L[op]);
    const a = st.actions[op];
    if (a) {
      b.classList.toggle('on', a.on);
      if (b.title !== (a.off || '')) b.title = a.off || '';
    }
    if (op === 'undo') b.disabled = !st.canUndo;
  }
  drawRack();
  draw101(st, tile);
  drawBoard(st);
  const logKey = JSON.stringify(st.log);
  if (logKey !== drawn.log) {
    drawn.log = logKey;
    drawLog();
  }
  drawPanel();
  drawChat(st);
  drawAsk();
}

// The leave's question: while the match is under way (st.leaveAsk) a
// leave asks first, as the terminal's q does; y or its button leaves, n,
// Escape or its button stays. It closes by itself once the match is over.
let asking = false;
function drawAsk() {
  const q = st.leaveAsk;
  if (!q) asking = false;
  $('leave-ask').hidden = !asking;
  if (!q) return;
  text($('leave-title'), q.title);
  const key = JSON.stringify(q.lines);
  const box = $('leave-lines');
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    box.replaceChildren(...q.lines.map((l) => { const p = document.createElement('p'); p.textContent = l; return p; }));
  }
  text($('leave-yes'), q.yes);
  text($('leave-no'), q.no);
}
function ask(on) {
  asking = on && !!(st && st.leaveAsk);
  if (st) drawAsk();
  if (asking) $('leave-no').focus();
}
$('leave-yes').addEventListener('click', () => { ask(false); send('leave'); });
$('leave-no').addEventListener('click', () => ask(false));

// drawn holds what was last drawn of the parts that change less often.
const drawn = { log: '' };

function drawLog() {
  const log = $('log');
  log.replaceChildren();
  for (const line of st.log || []) {
    const li = document.createElement('li');
    for (const sp of line) {
      if (sp.f) {
        const t = tile(sp.f, 'inline');
        if (sp.t) t.title = sp.t;
        li.appendChild(t);
      } else li.appendChild(document.createTextNode(sp.t));
    }
    log.appendChild(li);
  }
  log.scrollTop = log.scrollHeight;
}

// drawRack draws the rack in place: its cells are made once, and a cell's
// tile is made again only when what it shows changed.
function drawRack() {
  const rack = $('rack');
  const n = 2 * st.cols;
  if (rack.children.length !== n) {
    const cells = [];
    for (let p = 0; p < n; p++) {
      const cell = document.createElement('div');
      cell.className = 'cell';
      cell.dataset.pos = String(p);
      cells.push(cell);
    }
    rack.replaceChildren(...cells);
  }
  const byPos = new Map((st.rack || []).map((t) => [t.pos, t]));
  for (let p = 0; p < n; p++) {
    const cell = rack.children[p];
    cell.classList.toggle('cursor', p === st.cursor);
    const t = byPos.get(p);
    const key = t ? JSON.stringify(t) + (p === st.lifted ? 'L' : '') : '';
    if (cell.dataset.key === key) continue;
    cell.dataset.key = key;
    if (!t) { cell.replaceChildren(); continue; }
    const el = tile(t.face, 'rack');
    el.dataset.pos = String(p);
    if (t.fresh) el.classList.add('fresh');
    if (t.hinted) el.classList.add('hinted');
    if (t.sel) el.classList.add('sel');
    if (p === st.lifted) el.classList.add('lifted');
    cell.replaceChildren(el);
  }
}

function drawPanel() {
  const panel = $('panel');
  const box = $('panel-box');
  const e = st.handEnd || st.matchEnd;
  // The panel is made again only when it changed.
  const L = st.labels;
  const key = e ? JSON.stringify([st.handEnd, st.matchEnd, L.leave, L.close, L.total, L.change, L.score, L.why]) : '';
  if (panel.dataset.key === key && panel.dataset.key !== undefined) return;
  panel.dataset.key = key;
  if (!e) { panel.hidden = true; box.replaceChildren(); return; }
  panel.hidden = false;
  panel.className = st.handEnd ? 'handend' : 'matchend';
  box.replaceChildren();
  const h = document.createElement('h2');
  h.textContent = e.title;
  box.appendChild(h);
  const p = document.createElement('p');
  p.textContent = st.handEnd ? e.line : e.head;
  box.appendChild(p);
  if (st.handEnd && e.r101) panel101(box, st, tile);
  for (const g of e.groups || []) {
    const row = document.createElement('div');
    row.className = 'group';
    for (const sp of g) row.appendChild(sp.f ? tile(sp.f, 'small') : document.createTextNode(sp.t));
    box.appendChild(row);
  }
  const tb = document.createElement('table');
  if (st.handEnd && e.r101) tb.hidden = true;
  const head = document.createElement('tr');
  for (const k of st.handEnd ? ['', st.labels.change, st.labels.score, st.labels.why] : ['', '#', st.labels.score]) {
    const th = document.createElement('th');
    th.textContent = k;
    head.appendChild(th);
  }
  tb.appendChild(head);
  for (const r of e.rows) {
    const tr = document.createElement('tr');
    const cells = st.handEnd ? [r.name, r.change, r.score, r.why] : [r.name, r.change, r.score];
    for (const c of cells) {
      const td = document.createElement('td');
      td.textContent = String(c ?? '');
      tr.appendChild(td);
    }
    tb.appendChild(tr);
  }
  box.appendChild(tb);
  if (st.matchEnd) {
    const v = document.createElement('p');
    v.id = 'verdict';
    v.className = e.good ? 'good' : 'bad';
    v.textContent = e.verdict;
    box.appendChild(v);
    if (e.file) {
      const f = document.createElement('p');
      f.className = 'file';
      f.textContent = e.file;
      box.appendChild(f);
    }
  }
  if (st.matchEnd) {
    const b = document.createElement('button');
    b.dataset.op = 'leave';
    b.textContent = st.labels.leave;
    box.appendChild(b);
  }
  if (st.handEnd) {
    const b = document.createElement('button');
    b.id = 'close';
    b.textContent = st.labels.close;
    b.addEventListener('click', () => send('close'));
    box.appendChild(b);
  }
}

// A discard or a win from a key or a button is about the model's target
// (-1): the picked-up tile, or the one under the cursor, as in the
// terminal.
function op(name) {
  if (!st) return;
  if (name === 'leave' && st.leaveAsk) { ask(true); return; }
  if (name === 'discard' || name === 'win') send(name, -1);
  else send(name);
}

document.addEventListener('click', (ev) => {
  const b = ev.target.closest('[data-op]');
  if (b && !b.disabled) op(b.dataset.op);
  // Okey 101: a click on a meld adds the selection to it.
  const md = ev.target.closest('#melds .meld');
  if (md && st) send('addto', 0, Number(md.dataset.meld));
});

// The rack: click picks a tile up and puts it down (as in the terminal),
// a double click discards it, a drag moves it on the rack or, dropped on
// the discard spot, discards it.
const rackEl = () => $('rack');
document.addEventListener('pointerdown', (ev) => {
  const t = ev.target.closest('#rack .tile');
  if (!t || ev.button !== 0) return;
  drag = { pos: Number(t.dataset.pos), el: t, x: ev.clientX, y: ev.clientY, moved: false };
  t.setPointerCapture(ev.pointerId);
});
document.addEventListener('pointermove', (ev) => {
  if (!drag) return;
  const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
  if (!drag.moved && Math.hypot(dx, dy) < 6) return;
  drag.moved = true;
  drag.el.classList.add('dragging');
  drag.el.style.transform = `translate(${dx}px, ${dy}px)`;
});
document.addEventListener('pointerup', (ev) => {
  if (!drag) return;
  const d = drag;
  drag = null;
  d.el.style.transform = '';
  d.el.classList.remove('dragging');
  if (!d.moved) {
    // Okey 101: a click selects the tile (or puts a picked-up one down).
    if (st.r101) send('toggle', d.pos);
    else if (st.lifted >= 0) send('move', st.lifted, d.pos);
    else send('lift', d.pos);
    return;
  }
  const under = document.elementsFromPoint(ev.clientX, ev.clientY);
  if (drop101(st, d.pos, under, send)) return;
  if (under.some((e) => e.id === 'discard' || (e.closest && e.closest('#seat-right .pile')))) {
    send('discard', d.pos);
    return;
  }
  const cell = under.find((e) => e.classList && e.classList.contains('cell'));
  if (cell) send('move', d.pos, Number(cell.dataset.pos));
});
document.addEventListener('dblclick', (ev) => {
  const t = ev.target.closest('#rack .tile');
  if (t) send('discard', Number(t.dataset.pos));
});
// A click on an empty cell puts a picked-up tile down there.
document.addEventListener('click', (ev) => {
  const c = ev.target.closest('#rack .cell');
  if (c && !c.firstChild && st && st.lifted >= 0) send('move', st.lifted, Number(c.dataset.pos));
});

// Keys as in the terminal.
const keyOps = { d: 'draw', t: 'take', x: 'discard', Delete: 'discard', w: 'win', g: 'show', h: 'hint', s: 'sets', r: 'runs', p: 'pairs', u: 'undo' };
document.addEventListener('keydown', (ev) => {
  if (keyChat(ev, st)) return;
  if (!st || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (asking) {
    if (ev.key === 'y') { ask(false); send('leave'); } else if (ev.key === 'n' || ev.key === 'Escape') ask(false);
    // Enter and space press the focused button (stay, first).
    if (ev.key !== 'Enter' && ev.key !== ' ' && ev.key !== 'Tab') ev.preventDefault();
    return;
  }
  if (st.board && keyBoard(ev, st, send)) { ev.preventDefault(); return; }
  if (st.handEnd && (ev.key === 'Enter' || ev.key === 'Escape' || ev.key === ' ')) { send('close'); ev.preventDefault(); return; }
  if (!st.matchEnd && key101(ev, st, send)) { ev.preventDefault(); return; }
  const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -st.cols, ArrowDown: st.cols };
  if (ev.key in moves) {
    const n = 2 * st.cols;
    send('cursor', (st.cursor + moves[ev.key] + n) % n);
    ev.preventDefault();
    return;
  }
  if (ev.key === ' ' || ev.key === 'Enter') {
    if (st.lifted >= 0) send('move', st.lifted, st.cursor);
    else send('lift', st.cursor);
    ev.preventDefault();
    return;
  }
  if (ev.key === 'Escape') { send('putback'); return; }
  if (ev.key === 'q') { op('leave'); ev.preventDefault(); return; }
  const o = keyOps[ev.key];
  if (o) { op(o); ev.preventDefault(); }
});

connect();
