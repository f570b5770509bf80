// okey's web lobby: it draws the lobby state the player's own okey process
// sends (the tables seen, the player's seat, invite code, relays, links)
// and sends back what the player asks for. Every word comes from the
// process (state.labels), in the player's language.

const $ = (id) => document.getElementById(id);
let st = null;
let ws = null;
let filled = false;

// The socket dropped while okey runs (a laptop's sleep, a restarted
// network) is opened again, as the table's page does: after 250 ms, then
// doubling up to 4 s, the message line saying so; okey sends the lobby as
// it is now on the new socket.
const backoff = { first: 250, cap: 4000 };
let retries = 0; // failed openings since the socket last dropped
let retry = null;

function connect() {
  retry = null;
  ws = new WebSocket(`ws://${location.host}/lobby.ws`);
  let last = '';
  ws.onopen = () => {
    retries = 0;
    document.body.classList.remove('reconnecting', 'gone');
    document.body.dataset.opens = String(Number(document.body.dataset.opens || 0) + 1);
  };
  ws.onmessage = (ev) => {
    // The same state again (the lobby's tick) keeps the page as it is.
    if (ev.data === last) return;
    last = ev.data;
    st = JSON.parse(ev.data);
    if (st.playing) {
      // The match's table takes the page; back here after it.
      location.assign('/table');
      return;
    }
    draw();
    document.body.dataset.seq = String(Number(document.body.dataset.seq || 0) + 1);
  };
  ws.onclose = (ev) => {
    if (ev.code !== 1000) { reconnect(); return; }
    document.body.classList.add('gone');
    if (st) $('msg').textContent = st.labels.disconnected;
  };
}

// reconnect opens the socket again after the backoff; after a few failed
// tries the message line also says okey may be gone (and it goes on trying).
function reconnect() {
  if (retry) return;
  const wait = Math.min(backoff.cap, backoff.first * 2 ** retries);
  retries++;
  document.body.classList.add('reconnecting');
  document.body.classList.toggle('gone', retries > 5);
  if (st) $('msg').textContent = retries > 5 ? `${st.labels.disconnected} · ${st.labels.reconnecting}` : st.labels.reconnecting;
  retry = setTimeout(connect, wait);
}

function send(c) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(c));
  document.body.dataset.sentAt = String(performance.now());
}

function text(el, s) { el.textContent = s || ''; }

function button(label, cmd, cls) {
  const b = document.createElement('button');
  b.textContent = label;
  b.className = cls;
  b.disabled = st.busy;
  b.addEventListener('click', () => send(cmd));
  return b;
}

function fillForms(L) {
  text($('l-title'), L.title);
  text($('l-tables'), L.tables);
  text($('l-create'), L.create);
  text($('l-ruleset'), L.ruleset);
  text($('l-players'), L.players);
  text($('l-options'), L.options);
  text($('l-bots'), L.bots);
  text($('l-level'), L.level);
  text($('l-private'), L.private);
  text($('c-create'), L.create);
  text($('l-code'), L.code);
  $('code').placeholder = L.codeHint;
  text($('code-join'), L.join);
  text($('l-relay'), L.relay);
  $('relay').placeholder = L.relayHint;
  text($('relay-use'), L.use);
  text($('copy'), L.copy);
  text($('invite-label'), L.invite);
  text($('l-links'), L.links);
  text($('l-tours'), L.tours);
  text($('l-announce'), L.announce);
  text($('l-tname'), L.tourName);
  text($('l-truleset'), L.ruleset);
  text($('l-toptions'), L.options);
  text($('l-tplayers'), L.players);
  text($('l-rounds'), L.rounds);
  text($('t-hint'), L.tourHint);
  text($('t-create'), L.announce);
  document.title = L.title;
  if (filled) return;
  filled = true;
  for (const p of st.presets) {
    for (const sel of ['c-ruleset', 't-ruleset']) {
      const o = document.createElement('option');
      o.value = o.textContent = p;
      $(sel).appendChild(o);
    }
  }
  // A tournament's players: 3 to 64, never 5 (no table seats 5); its
  // Swiss rounds: 1 to 15 (the terminal's form has the same).
  for (let n = 3; n <= 64; n++) {
    if (n === 5) continue;
    const o = document.createElement('option');
    o.value = o.textContent = String(n);
    if (n === 8) o.selected = true;
    $('t-players').appendChild(o);
  }
  for (let n = 1; n <= 15; n++) {
    const o = document.createElement('option');
    o.value = o.textContent = String(n);
    if (n === 3) o.selected = true;
    $('t-rounds').appendChild(o);
  }
  for (const lv of st.levels) {
    const o = document.createElement('option');
    o.value = o.textContent = lv;
    if (lv === st.level) o.selected = true;
    $('c-level').appendChild(o);
  }
}

// drawUnfinished lists the matches the player left before their end: a
// LAN table or a match against bots on this computer, to resume (the
// latter to drop too: a second click drops it).
function drawUnfinished(L) {
  const list = st.unfinished || [];
  $('unfin-box').hidden = !list.length;
  text($('l-unfin'), L.unfinished);
  const body = $('unfin').tBodies[0];
  body.replaceChildren();
  for (const u of list) {
    const tr = document.createElement('tr');
    tr.className = 'ut' + (u.local ? ' local' : '');
    tr.dataset.id = u.id;
    const rs = document.createElement('td');
    rs.textContent = u.ruleset + (u.local ? ' · ' + L.local : '');
    const note = document.createElement('td');
    note.textContent = u.note;
    const acts = document.createElement('td');
    acts.appendChild(button(L.resume, { op: 'resume', id: u.id }, 'resume'));
    if (u.local) acts.appendChild(button(L.drop, { op: 'drop', id: u.id }, 'drop'));
    tr.append(rs, note, acts);
    body.appendChild(tr);
  }
}

// drawTours lists the tournaments on the LAN: name, rules, players
// registered of those wanted, progress; join on one the player may enter,
// and under each the standings after its last round known (the final
// ones at its end).
function drawTours(L) {
  $('tours-box').hidden = !st.tourOn;
  $('tcreate').hidden = !st.tourOn;
  const list = st.tours || [];
  const body = $('tours').tBodies[0];
  body.replaceChildren();
  for (const t of list) {
    const tr = document.createElement('tr');
    tr.className = 'tt' + (t.mine ? ' mine' : '') + (t.ended ? ' ended' : '');
    tr.dataset.id = t.id;
    const name = document.createElement('td');
    name.className = 'tname';
    name.textContent = t.name;
    const rs = document.createElement('td');
    rs.textContent = t.ruleset;
    const reg = document.createElement('td');
    reg.className = 'treg';
    reg.textContent = `${t.registered}/${t.players}`;
    const state = document.createElement('td');
    state.className = 'tstate';
    state.textContent = t.state;
    const acts = document.createElement('td');
    if (t.join) acts.appendChild(button(L.register, { op: 'tjoin', id: t.id }, 'tjoin'));
    tr.append(name, rs, reg, state, acts);
    body.appendChild(tr);
    if ((t.standings || []).length) {
      const sr = document.createElement('tr');
      sr.className = 'standings';
      sr.dataset.id = t.id;
      const td = document.createElement('td');
      td.colSpan = 5;
      const h = document.createElement('div');
      h.className = 'shead';
      h.textContent = t.standingsHead;
      const ol = document.createElement('ul');
      for (const line of t.standings) {
        const li = document.createElement('li');
        li.textContent = line;
        ol.appendChild(li);
      }
      td.append(h, ol);
      sr.appendChild(td);
      body.appendChild(sr);
    }
  }
  $('no-tours').hidden = list.length > 0;
  text($('no-tours'), L.noTours);
}

function draw() {
  const L = st.labels;
  fillForms(L);
  text($('self'), st.name + (st.addrs && st.addrs.length ? ' · ' + st.addrs[0] : ''));
  const body = $('tables').tBodies[0];
  body.replaceChildren();
  let invite = null;
  for (const t of st.tables || []) {
    const tr = document.createElement('tr');
    tr.className = 'lt' + (t.seated ? ' seated' : '');
    tr.dataset.id = t.id;
    tr.dataset.state = t.state;
    const id = document.createElement('td');
    id.textContent = t.id + (t.private ? ' · ' + L.private1 : '');
    const rs = document.createElement('td');
    rs.textContent = t.ruleset;
    const seats = document.createElement('td');
    seats.className = 'members';
    for (const m of t.members) {
      const s = document.createElement('span');
      s.className = 'member' + (m.ready ? ' ready' : '') + (m.self ? ' self' : '');
      s.textContent = (m.self ? L.you : m.name) + (m.ready ? ' ✓' : '') + ' ';
      seats.appendChild(s);
    }
    seats.appendChild(document.createTextNode(`${t.members.length}/${t.seats}`));
    const state = document.createElement('td');
    state.textContent = t.stateText;
    const acts = document.createElement('td');
    if (t.state === 'open') {
      if (!t.seated && !t.private && t.members.length < t.seats) acts.appendChild(button(L.join, { op: 'join', id: t.id }, 'join'));
      if (t.seated) {
        acts.appendChild(button(t.ready ? L.notReady : L.ready, { op: 'ready', id: t.id, ready: !t.ready }, 'ready'));
        if (t.mine) acts.appendChild(button(L.close, { op: 'close', id: t.id }, 'close'));
        else acts.appendChild(button(L.leave, { op: 'leave', id: t.id }, 'leave'));
      }
    }
    if (t.watch) acts.appendChild(button(L.watch, { op: 'watch', id: t.id }, 'watch'));
    if (t.invite) invite = t;
    tr.append(id, rs, seats, state, acts);
    body.appendChild(tr);
  }
  drawUnfinished(L);
  drawTours(L);
  $('none').hidden = (st.tables || []).length > 0;
  text($('none'), L.none);
  $('invite').hidden = !invite;
  if (invite) {
    text($('invite-code'), invite.invite);
    text($('refusing'), invite.refusing);
  }
  const links = $('links');
  links.replaceChildren();
  for (const k of st.links || []) {
    const li = document.createElement('li');
    li.className = 'link-' + k.kind;
    li.textContent = `${k.name}: ${k.text}`;
    links.appendChild(li);
  }
  $('links-box').hidden = !(st.links || []).length;
  text($('relays'), (st.relays || []).length ? L.relays + ': ' + st.relays.join(', ') : L.noRelay);
  $('msg').className = st.bad ? 'bad' : '';
  text($('msg'), st.msg);
  for (const b of ['c-create', 't-create', 'code-join', 'relay-use']) $(b).disabled = st.busy;
}

$('create').addEventListener('submit', (ev) => {
  ev.preventDefault();
  send({
    op: 'create', ruleset: $('c-ruleset').value + ($('c-options').value.trim() ? ':' + $('c-options').value.trim() : ''), players: Number($('c-players').value),
    bots: Number($('c-bots').value), level: $('c-level').value, private: $('c-private').checked,
  });
});
$('tcreate').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const opts = $('t-options').value.trim();
  send({
    op: 'tcreate', name: $('t-name').value, ruleset: $('t-ruleset').value + (opts ? ':' + opts : ''),
    players: Number($('t-players').value), rounds: Number($('t-rounds').value),
  });
});
$('codeform').addEventListener('submit', (ev) => {
  ev.preventDefault();
  send({ op: 'code', text: $('code').value });
});
$('relayform').addEventListener('submit', (ev) => {
  ev.preventDefault();
  send({ op: 'relay', text: $('relay').value });
});
$('copy').addEventListener('click', async () => {
  const code = $('invite-code').textContent;
  let ok = false;
  try {
    await navigator.clipboard.writeText(code);
    ok = true;
  } catch (e) {
    const r = document.createRange();
    r.selectNodeContents($('invite-code'));
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(r);
    ok = document.execCommand && document.execCommand('copy');
  }
  if (ok && st) text($('copy'), st.labels.copied);
});

connect();
