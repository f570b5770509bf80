// A table seen from no seat: a spectator's page (okey watch --web) or a
// transcript's replay (okey replay --web). It draws where the page stands
// in the table's frames and the verdict, and steps as the terminal's
// replay does; the table itself is app.js's, every rack as the table
// opened it (all of them once the hand's audit made them public).

let made = false;

function setup() {
  if (made) return;
  made = true;
  document.head.appendChild(Object.assign(document.createElement('link'), { rel: 'stylesheet', href: '/board.css' }));
  const bar = document.createElement('div');
  bar.id = 'board';
  const where = document.createElement('span');
  where.id = 'where';
  bar.appendChild(where);
  for (const op of ['first', 'prevhand', 'back', 'forward', 'nexthand', 'last']) {
    const b = document.createElement('button');
    b.dataset.op = op;
    bar.appendChild(b);
  }
  const v = document.createElement('span');
  v.id = 'board-verdict';
  bar.appendChild(v);
  document.getElementById('buttons').before(bar);
}

// drawBoard draws the frames' part of the state, if any.
export function drawBoard(st) {
  const b = st.board;
  if (!b && !made) return;
  setup();
  document.body.classList.toggle('board', !!b);
  document.body.classList.toggle('watch', !!b && b.mode === 'watch');
  if (!b) return;
  const L = st.labels;
  document.getElementById('where').textContent = b.where || '';
  for (const btn of document.querySelectorAll('#board button')) btn.textContent = L[btn.dataset.op];
  const v = document.getElementById('board-verdict');
  v.textContent = b.verdict || '';
  v.className = b.verdict ? (b.good ? 'good' : 'bad') : '';
  document.getElementById('keys').textContent = L.boardkeys;
  document.body.dataset.frame = String(b.at);
  document.body.dataset.frames = String(b.frames);
}

// keyBoard steps by the replay's keys; false for any other key.
export function keyBoard(ev, st, send) {
  if (!st.board) return false;
  const ops = { ArrowLeft: 'back', ArrowRight: 'forward', ArrowUp: 'prevhand', ArrowDown: 'nexthand', Home: 'first', End: 'last', q: 'leave' };
  // Enter, Escape and space close a hand's panel (the next frame).
  if (st.handEnd && (ev.key === 'Enter' || ev.key === 'Escape' || ev.key === ' ')) return false;
  const o = ops[ev.key];
  if (o) send(o);
  return true;
}
