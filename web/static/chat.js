// The table's chat at a LAN table (protocol.md 7.13), as the terminal has
// it: the latest messages, the nine quick messages (each reader sees them
// in its own language), one's own words, and a toggle per player to mute
// them (for this player alone). '/' opens it as in the terminal; enter
// sends, esc closes. It draws what the process sends (state.chat) and
// sends back what the player asks for. A message is a player's words:
// always text (textContent), never HTML.

import { $, el } from './dom.js';

let made = false;
let send = null;
let drawn = '';
// opening: the '/' that opened the chat is on its way; it is no word.
let opening = false;

// setup adds the chat's panel under the log once (hidden at a table
// without a chat).
function setup() {
  if (made) return;
  made = true;
  document.head.appendChild(el('link', { rel: 'stylesheet', href: '/chat.css' }));
  const box = el('section', { id: 'chat', hidden: '' },
    el('h2', { id: 'chat-label' }),
    el('ol', { id: 'chat-lines' }),
    el('div', { id: 'chat-quick' }),
    el('div', { id: 'chat-say' }, el('input', { id: 'chat-input', type: 'text', autocomplete: 'off', spellcheck: 'false' }),
      el('button', { id: 'chat-send', type: 'button' })),
    el('div', { id: 'chat-members' }),
    el('div', { id: 'chat-keys' }));
  $('log').after(box);
  $('chat-send').addEventListener('click', say);
  $('chat-input').addEventListener('beforeinput', (ev) => {
    if (opening && ev.data === '/') ev.preventDefault();
    opening = false;
  });
  document.addEventListener('keyup', () => { opening = false; });
  box.addEventListener('click', (ev) => {
    const q = ev.target.closest('#chat-quick button');
    if (q) send({ op: 'chat', quick: Number(q.dataset.quick) });
    const m = ev.target.closest('#chat-members button');
    if (m) send({ op: 'mute', member: m.dataset.member });
  });
}

// say sends the input's words (nothing when it is empty) and empties it.
function say() {
  const input = $('chat-input');
  const text = input.value.trim();
  if (!text) return;
  send({ op: 'chat', text });
  input.value = '';
}

// initChat gives the chat the function that sends a command to the
// process.
export function initChat(sendCommand) { send = sendCommand; }

// drawChat draws state.chat (the panel hidden when there is none).
export function drawChat(st) {
  const c = st.chat;
  if (!c && !made) return;
  setup();
  const box = $('chat');
  box.hidden = !c;
  if (!c) return;
  const key = JSON.stringify(c);
  if (key === drawn) return;
  drawn = key;
  const L = c.labels;
  $('chat-label').textContent = L.chat;
  $('chat-keys').textContent = L.keys;
  const input = $('chat-input');
  input.placeholder = L.input;
  input.maxLength = c.max;
  $('chat-send').textContent = L.send;
  // A spectator's page reads the chat and posts nothing.
  for (const id of ['chat-quick', 'chat-say', 'chat-members']) $(id).hidden = !!c.readOnly;

  const lines = $('chat-lines');
  lines.replaceChildren(...c.lines.map((l) => el('li', { class: l.own ? 'own' : '', 'data-id': l.id },
    el('b', { text: l.name + ':' }), ' ', el('span', { class: 'said', text: l.text }))));
  if (!c.lines.length) lines.replaceChildren(el('li', { class: 'none', text: L.none }));
  lines.scrollTop = lines.scrollHeight;

  $('chat-quick').replaceChildren(...c.quick.map((q, i) => el('button', { type: 'button', 'data-quick': String(i + 1), title: `${i + 1}`, text: q })));

  $('chat-members').replaceChildren(...c.members.filter((m) => !m.self).map((m) =>
    el('span', { class: 'member' + (m.muted ? ' muted' : ''), 'data-id': m.id },
      el('span', { class: 'who', text: m.name }), ' ',
      el('button', { type: 'button', 'data-member': m.id, text: m.muted ? L.unmute : L.mute }))));
}

// keyChat takes the keys that are the chat's: '/' opens it (the input has
// the focus), and while the input has it every key is the input's (enter
// sends, esc closes); true when the table's keys must leave ev alone.
export function keyChat(ev, st) {
  const input = $('chat-input');
  if (input && ev.target === input) {
    if (ev.key === 'Enter') { say(); ev.preventDefault(); }
    if (ev.key === 'Escape') { input.value = ''; input.blur(); ev.preventDefault(); }
    return true;
  }
  if (ev.key === '/' && st && st.chat && !st.chat.readOnly && input && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
    opening = true;
    input.focus();
    ev.preventDefault();
    return true;
  }
  return false;
}
