package table

import (
	"encoding/binary"
	"fmt"
	"log/slog"
)

// The node is the table protocol's decisions with no clock, no transport and
// no goroutines, in the shape of etcd-io/raft's Node: the caller feeds it
// what happens (Step: a received envelope; Tick: logical time; Propose: this
// seat's own sealed envelope; Fetched: the answer to a fetch it asked for),
// reads what to do from Ready (the next envelope to apply, the fetches to
// make, whether this seat must speak, how the match ended) and calls Advance
// when it has done it. Peer.Run is the loop around it: the clock, the
// transport, the store, the secrets and the mover live there.
//
// Everything here is protocol.md 5.2 (receiving, one message per seat and
// step, forks and their budget, the reorder buffer) and 5.5/5.7 (stall,
// catch-up), in logical time: one tick is the loop's ticker period (an eighth
// of the stall interval in okey).

// nodeConfig is what a node needs to decide.
type nodeConfig struct {
	Table Config
	Seat  int
	Log   *slog.Logger
	// StallTicks is the stall interval in ticks (5.7): the wait before a
	// catch-up round, and a fork batch's budget (5.2).
	StallTicks int
	// WithholdTicks and MoveWithholdTicks are the withhold times (5.5) in
	// ticks: with no progress for that long, the match stalls.
	WithholdTicks, MoveWithholdTicks int
	// Lenient: this seat's own envelopes are not checked before they are
	// sent (a cheater's node, okey sim --cheat).
	Lenient bool
	// Spectator: a node without a seat (Seat is NoSeat, spectator.go). It
	// asks for the chain at its first tick, and again at once while the
	// answers come full (maxFetchAnswer envelopes: there is more), so that
	// one joining mid-match reaches the current position without waiting
	// stall intervals. Between catch-up rounds it polls: at each tick with
	// no fetch in flight, it asks one member (in turn) for the chain from
	// its next step (protocol.md 5.9): a spectator is fed by the members'
	// answers, not by their broadcasts. It polls the same member while it
	// answers, the next one after a failure, starting at PollFrom (the
	// caller spreads its spectators over the members).
	Spectator bool
	PollFrom  int
}

// node is one seat's protocol state and decisions (see the comment above).
type node struct {
	c       nodeConfig
	m       *Machine
	buf     map[uint32][]*Envelope // early envelopes by step
	bufSize int                    // their bytes (bounded by maxBuffered)
	chain   [][]byte               // raw envelopes applied, by step
	// hashes holds the hash of every applied envelope, by step (to answer
	// fetch-by-hash requests); append-only like chain.
	hashes  [][32]byte
	rejects int
	// forks are messages that link to a previous message this node does not
	// have: it fetches that message to find who signed two. At most one per
	// (signer, step, previous hash), maxForksPerSigner per signer.
	forks []*Envelope
	// offChain holds, by (step, signer), the first signed message this node
	// received on another branch than its chain (a fork), at most
	// maxForksPerSigner steps per signer, kept after its fork is resolved
	// or dropped: a second, different message of that signer for that step
	// is equivocation by itself (protocol.md 5.2). offChainN counts them by
	// signer.
	offChain  map[[2]uint32]*Envelope
	offChainN []int
	// mute marks the seats that once failed to produce the predecessor of
	// their own message on a fork: they are not asked again in this match.
	mute []bool

	now      int  // ticks so far
	idle     int  // tick of the last progress
	asked    int  // tick of the last catch-up round
	hasAsked bool // a catch-up round was started
	// soon: a member's connection changed (LinkChanged) with no progress
	// since (soonIdle is idle then): ask for the chain soon.
	soon     bool
	soonIdle int
	// forkNext is the tick at which the next fork batch may start (a batch
	// that used up its budget makes the next wait one stall interval);
	// batchEnd is the current batch's end (inBatch: one is running).
	forkNext, batchEnd int
	inBatch            bool

	catchup *catchUpRound // the catch-up round in flight
	hunt    *forkHunt     // the fork being resolved
	nextID  uint64        // of the next fetch

	stalled *nodeStall
	// more: the last catch-up answer was full (a spectator asks again at
	// once once it has applied it). pollNext: the member a spectator's
	// next poll asks.
	more     bool
	pollNext int

	// pending is what the next Ready reports.
	apply   *Envelope
	own     bool
	fetches []fetchReq
}

// nodeStall is a stall in logical time: the seat the node waited for.
type nodeStall struct {
	Seat  int
	Kind  Kind
	Step  uint32
	Ticks int
}

// ready is what the node asks its caller to do, in this order: stop (one
// of the end fields is set), start the fetches, speak (build this seat's
// next message of kind Speak and Propose it), or apply: call Advance, which
// applies Apply. This seat's own (Own) is saved, waiting for the disk, and
// sent before Advance; another's is saved (lazily) once Advance applied it.
type ready struct {
	// The match ended: Violation (named on signed proof: record and send
	// its evidence), Stall (the seat to speak was silent for the withhold
	// time), Failure (the rules cannot go on), or Done (it finished).
	Violation *Violation
	Stall     *nodeStall
	Failure   *Failure
	Done      bool
	// Fetches to start; each answer goes back through Fetched.
	Fetches []fetchReq
	// Speak is the kind this seat must send next (0: none).
	Speak Kind
	// Apply is the next envelope of the chain; Own marks this seat's own.
	Apply *Envelope
	Own   bool
}

// fetchReq is a request the node wants sent to one member: the chain from a
// step on (Hash zero, catch-up) or the one envelope of a hash (fork
// resolution), with at most Within ticks for the answer.
type fetchReq struct {
	ID     uint64
	Seat   int
	ByHash bool
	From   uint32   // catch-up: the first step wanted
	Hash   [32]byte // by hash: the envelope wanted
	Step   uint32   // by hash: the step it must stand at
	Within int
}

// Request is the fetch's bytes (protocol.md 5.7).
func (f fetchReq) Request() []byte {
	if f.ByHash {
		return fetchHashRequest(f.Hash)
	}
	return fetchRequest(f.From)
}

type catchUpRound struct {
	at   int    // seat asked now
	id   uint64 // its fetch
	poll bool   // a spectator's poll: one member only
}

type forkHunt struct {
	fork  *Envelope // the fork being resolved
	cur   *Envelope // the message whose predecessor is wanted
	depth int       // links followed
	order []int     // members to ask, the signer of cur first
	at    int       // index in order of the member asked now
	id    uint64    // its fetch
}

func newNode(c nodeConfig, m *Machine) *node {
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.StallTicks < 1 {
		c.StallTicks = 1
	}
	return &node{c: c, m: m, buf: map[uint32][]*Envelope{}, mute: make([]bool, len(c.Table.Seats)), pollNext: max(c.PollFrom, 0),
		offChain: map[[2]uint32]*Envelope{}, offChainN: make([]int, len(c.Table.Seats))}
}

// Ready returns what the caller must do next.
func (n *node) Ready() ready {
	rd := ready{Fetches: n.fetches}
	switch {
	case n.m.Aborted() != nil:
		rd.Violation = n.m.Aborted()
		return rd
	case n.m.Failure() != nil:
		rd.Failure = n.m.Failure()
		return rd
	case n.m.Done():
		rd.Done = true
		return rd
	case n.stalled != nil:
		rd.Stall = n.stalled
		return rd
	}
	rd.Apply, rd.Own = n.apply, n.own
	if rd.Apply == nil {
		if _, kind, ok := n.mustSpeak(); ok {
			rd.Speak = kind
		}
	}
	return rd
}

// mustSpeak reports whether this seat is to sign its next message now: at
// the current step, or at its place in a parallel round (protocol.md 5.3),
// and has not yet sent it.
func (n *node) mustSpeak() (step uint32, kind Kind, ok bool) {
	if n.c.Seat < 0 {
		return 0, 0, false
	}
	step, kind, ok = n.m.SpeakAt(n.c.Seat)
	if !ok || n.ownBuffered(step) {
		return 0, 0, false
	}
	return step, kind, true
}

// ownBuffered reports whether this seat's own message for step is in the
// reorder buffer (sent ahead of its step in a parallel round).
func (n *node) ownBuffered(step uint32) bool {
	for _, e := range n.buf[step] {
		if int(e.Seat) == n.c.Seat {
			return true
		}
	}
	return false
}

// roundEnd is the first step after the current round: after the parallel
// round's last place, or the next step.
func (n *node) roundEnd() uint32 {
	if n.m.parallel() {
		return n.m.Step() + uint32(len(n.m.roundOrder())-n.m.at)
	}
	return n.m.Step() + 1
}

// Advance tells the node that the caller did what rd said: the fetches are
// started and Apply is saved (and, for its own, sent). It applies Apply and
// returns the error of applying this seat's own envelope (another's is
// judged here: a violation ends the match, anything else is dropped).
func (n *node) Advance(rd ready) error {
	n.fetches = n.fetches[len(rd.Fetches):]
	if len(n.fetches) == 0 {
		n.fetches = nil
	}
	var err error
	if rd.Apply != nil && rd.Apply == n.apply && rd.Own && rd.Apply.Step != n.m.Step() {
		// Sent for a later place of a parallel round: applied at its step,
		// after the messages before it.
		n.apply, n.own = nil, false
		n.buf[rd.Apply.Step] = append(n.buf[rd.Apply.Step], rd.Apply)
		n.bufSize += len(rd.Apply.Raw)
	} else if rd.Apply != nil && rd.Apply == n.apply {
		n.apply, n.own = nil, false
		err = n.applyEnv(rd.Apply)
		if err != nil && !rd.Own {
			n.c.Log.Warn("violation", "err", err)
			if n.m.Aborted() == nil {
				n.reject("not applicable", err)
			}
			err = nil
		}
	}
	n.settle()
	return err
}

// applyEnv applies an envelope to the machine and the chain.
func (n *node) applyEnv(env *Envelope) error {
	if err := n.m.Apply(env); err != nil {
		return err
	}
	n.hashes = append(n.hashes, env.Hash())
	n.chain = append(n.chain, env.Raw)
	n.idle = n.now
	return nil
}

// Propose takes this seat's next envelope, sealed by the caller. Unless the
// node is lenient, it must pass the machine's checks, and a move must apply
// to a copy of the machine (5.5: a move the rules refuse is not sent,
// ErrOwnMove). The next Ready carries it as Apply (Own).
func (n *node) Propose(env *Envelope) error {
	check := n.m.Check
	if env.Step != n.m.Step() {
		check = n.m.checkAhead
	}
	if err := check(env); err != nil && !n.c.Lenient {
		return fmt.Errorf("table: internal error: own envelope refused: %w", err)
	}
	if env.Kind == KindMove && !n.c.Lenient {
		// A move is tried on a copy before it is signed away: a mover that
		// chose a move the rules refuse (a bug, or a state it misread) must
		// not get its own seat named. The peer stops instead, and the table
		// stalls with no one named.
		if err := n.m.clone().Apply(env); err != nil {
			return fmt.Errorf("%w: %w", ErrOwnMove, err)
		}
	}
	n.apply, n.own = env, true
	return nil
}

// Tick advances logical time: catch-up after a stall interval without
// progress (an eighth of it with a later step's message waiting), the
// withhold check, and the next fork batch.
func (n *node) Tick() {
	n.now++
	if n.m.Done() || n.stalled != nil {
		return
	}
	if _, _, ok := n.mustSpeak(); ok {
		// This seat is to speak (its mover may be thinking): it is not
		// silent, and nothing is missing.
		n.idle = n.now
		n.settle()
		return
	}
	n.settle()
	if n.catchup != nil {
		return
	}
	// A later step's message while this one is missing means this one was
	// lost (each step is sent only after the one before): ask soon; so
	// after a member's connection changed (messages in flight on the old
	// one are lost with it) while no progress came since. In a
	// parallel round every seat answers the round's anchor at once (5.3),
	// with nothing to think over: a quarter of the stall interval without
	// its messages means they were lost (a member's link replaced under
	// them, as when a hole punch succeeds mid-match). Otherwise wait a whole
	// stall interval first.
	wait := n.c.StallTicks
	if n.soon && n.idle != n.soonIdle {
		n.soon = false // progress since the change: nothing was lost
	}
	switch {
	case n.bufferedBeyond(n.roundEnd()) || n.soon:
		wait = max(1, n.c.StallTicks/8)
	case n.m.parallel():
		wait = max(1, n.c.StallTicks/4)
	}
	if n.c.Spectator && (!n.hasAsked || n.more) && n.apply == nil && len(n.buf[n.m.Step()]) == 0 {
		wait = 0
	}
	if n.now-n.idle < wait || n.hasAsked && n.now-n.asked < wait {
		if n.c.Spectator && n.hunt == nil && len(n.fetches) == 0 {
			n.poll()
		}
		return
	}
	n.asked, n.hasAsked, n.more, n.soon = n.now, true, false, false
	n.catchup = &catchUpRound{at: -1}
	n.askCatchUp()
}

// LinkChanged says a member's connection changed (opened, closed, or an
// older one replaced by a newer): what was in flight on a closed one is
// lost, so without progress the next catch-up comes after an eighth of the
// stall interval, not the whole.
func (n *node) LinkChanged() { n.soon, n.soonIdle = true, n.idle }

// askCatchUp asks the next member for the chain from the current step on;
// with none left, the round found nothing, and the withhold check runs.
func (n *node) askCatchUp() {
	r := n.catchup
	for r.at++; r.at < len(n.c.Table.Seats); r.at++ {
		if r.at == n.c.Seat {
			continue
		}
		r.id = n.fetch(fetchReq{Seat: r.at, From: n.m.Step(), Within: n.c.StallTicks})
		return
	}
	n.catchup = nil
	seat, kind := n.m.Expect()
	limit := n.c.WithholdTicks
	if kind == KindMove {
		limit = n.c.MoveWithholdTicks
	}
	if waited := n.now - n.idle; waited >= limit && seat != n.c.Seat {
		n.stalled = &nodeStall{Seat: seat, Kind: kind, Step: n.m.Step(), Ticks: waited}
	}
}

// poll is a spectator's ask between rounds: one member, in turn, for the
// chain from its next step.
func (n *node) poll() {
	seat := n.pollNext % len(n.c.Table.Seats)
	n.catchup = &catchUpRound{at: seat, poll: true}
	n.catchup.id = n.fetch(fetchReq{Seat: seat, From: n.m.Step(), Within: n.c.StallTicks})
}

func (n *node) fetch(f fetchReq) uint64 {
	n.nextID++
	f.ID = n.nextID
	n.fetches = append(n.fetches, f)
	return f.ID
}

// Fetched takes the answer to a fetch (frames nil and failed true when it
// failed or timed out). Answers to fetches the node no longer waits for are
// dropped.
func (n *node) Fetched(id uint64, frames [][]byte, failed bool) {
	if n.m.Done() {
		return
	}
	switch {
	case n.catchup != nil && n.catchup.id == id:
		got := false
		if failed && n.catchup.poll {
			n.pollNext++ // that member did not answer: ask the next
		}
		if !failed {
			n.more = n.c.Spectator && len(frames) >= maxFetchAnswer
			for _, f := range frames {
				before := len(n.buf) + len(n.forks)
				n.receive(f)
				if n.m.Aborted() != nil {
					// The first violation ends the match; the rest of the
					// answer is not judged (5.2 check 3), as by broadcast.
					got = true
					break
				}
				got = got || len(n.buf)+len(n.forks) > before
			}
		}
		if seat, _ := n.m.Expect(); got || seat == n.c.Seat || n.catchup.poll {
			// Found, or this seat is now to speak: it asks for nothing
			// while its own move is due (5.5).
			n.catchup = nil
		} else if n.catchup != nil {
			n.askCatchUp()
		}
	case n.hunt != nil && n.hunt.id == id:
		n.hunted(frames, failed)
	}
	n.settle()
}

// Step takes a received envelope: it decodes and sorts it into the buffer,
// drops it as a duplicate, keeps it as a fork to resolve, or turns it into
// evidence against its signer (5.2).
func (n *node) Step(raw []byte) {
	if n.m.Done() {
		return // the match is over: every envelope fails (5.2 check 3)
	}
	n.receive(raw)
	n.settle()
}

func (n *node) receive(raw []byte) {
	env, err := DecodeEnvelope(raw)
	if err != nil {
		n.reject("undecodable", err)
		return
	}
	if env.Table != n.c.Table.ID || int(env.Seat) >= len(n.c.Table.Seats) {
		n.reject("other table", ErrWrongTable)
		return
	}
	if env.Version != n.m.version {
		// Another okey's table protocol (5.2 check 1): never applied, no
		// one named; the table stalls unfinished rather than desync.
		n.reject(fmt.Sprintf("seat %d speaks table protocol %d, this okey %d", env.Seat, env.Version, n.m.version), ErrVersion)
		return
	}
	if err := env.Verify(n.c.Table.Seats[env.Seat].Key, n.m.cfgHash); err != nil {
		n.reject("signature", err)
		return
	}
	step := env.Step
	if step < n.m.Step() {
		if v := n.judgePast(env); v != nil {
			n.m.abort(v)
		}
		return
	}
	if step > n.m.Step()+maxAhead {
		n.reject("far future step", ErrNotNext)
		return
	}
	for _, e := range n.buf[step] {
		if string(e.Raw) == string(env.Raw) {
			return
		}
		if e.Seat == env.Seat {
			// One seat, one message per step of a match: a second one is
			// equivocation even before the step comes.
			n.m.abort(equivocation(e, env))
			return
		}
	}
	if n.bufSize+len(env.Raw) > maxBuffered {
		n.reject("early messages over the buffer's bound", ErrNotNext)
		return // fetched again when its step comes
	}
	n.buf[step] = append(n.buf[step], env)
	n.bufSize += len(env.Raw)
}

// bufferedBeyond reports whether a message for step from or later waits in
// the buffer.
func (n *node) bufferedBeyond(from uint32) bool {
	for s := range n.buf {
		if s >= from {
			return true
		}
	}
	return false
}

// settle makes the decisions that wait for nothing: the next buffered
// envelope to apply (or the violation it proves), and the next fork fetch.
func (n *node) settle() {
	if n.m.Done() || n.stalled != nil {
		return
	}
	if n.apply == nil {
		if seat, kind := n.m.Expect(); seat != n.c.Seat || n.ownBuffered(n.m.Step()) {
			n.drain()
		} else {
			n.judgeOwnStep(kind)
		}
	}
	if n.m.Done() {
		return
	}
	n.startForks()
}

// judgePast judges a signed message for a step this node has applied: an
// exact duplicate is dropped; another message of the same seat is
// equivocation; one of another seat on the same previous message is
// out-of-turn (the state was the same, so the speaker was known); one on
// another previous message is a fork to resolve (no one named yet).
func (n *node) judgePast(env *Envelope) *Violation {
	own, err := DecodeEnvelope(n.chain[env.Step])
	if err != nil {
		return nil
	}
	if v := judgeAgainst(own, env); v != nil || string(own.Raw) == string(env.Raw) {
		return v
	}
	return n.addFork(env)
}

// judgeAgainst compares a signed message with the chain's message for the
// same step (own): nil when it proves nothing.
func judgeAgainst(own, env *Envelope) *Violation {
	switch {
	case string(own.Raw) == string(env.Raw):
		return nil
	case own.Seat == env.Seat:
		return equivocation(own, env)
	case own.Prev == env.Prev:
		return outOfTurn(env, int(own.Seat), own.Kind)
	}
	return nil
}

// addFork keeps a message on another branch to resolve: one per (signer,
// step, previous hash), and at most maxForksPerSigner of one signer (more
// are dropped, logged: a real one comes again with catch-up). A message
// that differs from one its signer signed for the same step on another
// branch, met before, is equivocation: the violation (the match is then
// over).
func (n *node) addFork(env *Envelope) *Violation {
	if v := n.offBranch(env); v != nil {
		return v
	}
	k := 0
	for _, f := range n.forks {
		if f.Seat != env.Seat {
			continue
		}
		if f.Step == env.Step && f.Prev == env.Prev {
			return nil
		}
		k++
	}
	if k >= maxForksPerSigner {
		n.c.Log.Warn("fork dropped: its signer has too many waiting", "seat", env.Seat, "step", env.Step)
		return nil
	}
	n.forks = append(n.forks, env)
	return nil
}

// offBranch remembers a signed message on another branch than this node's
// chain, the first of its signer for its step (at most maxForksPerSigner
// steps of one signer), and returns equivocation when its signer's
// remembered message for that step differs from it: the first met, then
// this one, as the evidence. Same table, same seat, same step, both
// signatures valid under this config, different bytes: proof, whatever
// their links (protocol.md 5.2).
func (n *node) offBranch(env *Envelope) *Violation {
	k := [2]uint32{env.Step, uint32(env.Seat)}
	if first := n.offChain[k]; first != nil {
		if string(first.Raw) != string(env.Raw) {
			return equivocation(first, env)
		}
		return nil
	}
	if n.offChainN[env.Seat] < maxForksPerSigner {
		n.offChainN[env.Seat]++
		n.offChain[k] = env
	}
	return nil
}

// startForks starts resolving the next waiting fork, when none is being
// resolved and the next batch may run: each fork's links are followed back,
// fetching the messages they name from their signer and then from everyone,
// until the step where the two branches part: two messages signed by one
// seat for that step (equivocation), or a message by a seat that was not to
// speak there (out-of-turn). A fork nobody can explain stays unresolved: the
// table stalls and no one is named. One batch takes at most one stall
// interval in all: when it runs out, the forks left wait, and the next batch
// starts one stall interval later.
func (n *node) startForks() {
	for n.hunt == nil && len(n.forks) > 0 && n.now >= n.forkNext && !n.m.Done() {
		if !n.inBatch {
			n.inBatch, n.batchEnd = true, n.now+n.c.StallTicks
		}
		if n.now >= n.batchEnd {
			n.inBatch, n.forkNext = false, n.now+n.c.StallTicks
			return
		}
		f := n.forks[0]
		n.forks = n.forks[1:]
		n.hunt = &forkHunt{fork: f, cur: f}
		n.follow()
	}
	if n.hunt == nil && len(n.forks) == 0 {
		n.inBatch = false
	}
}

// follow asks for the predecessor of the hunt's current message, unless it
// links to this chain (the branches part later: not a fork of ours) or is
// past the depth bound.
func (n *node) follow() {
	h := n.hunt
	cur := h.cur
	if h.depth >= maxForkDepth || cur.Step == 0 || int(cur.Step-1) >= len(n.chain) || n.linkAt(cur.Step) == cur.Prev {
		n.endHunt(nil)
		return
	}
	h.order = []int{int(cur.Seat)}
	for i := range n.c.Table.Seats {
		if i != int(cur.Seat) {
			h.order = append(h.order, i)
		}
	}
	h.at = -1
	n.askHunt()
}

// askHunt asks the next member of the hunt's order that is not muted, within
// what is left of the batch's budget.
func (n *node) askHunt() {
	h := n.hunt
	for h.at++; h.at < len(h.order); h.at++ {
		i := h.order[h.at]
		if i == n.c.Seat || n.mute[i] {
			continue
		}
		within := min(n.batchEnd-n.now, n.c.StallTicks)
		if within <= 0 {
			break
		}
		h.id = n.fetch(fetchReq{Seat: i, ByHash: true, Hash: h.cur.Prev, Step: h.cur.Step - 1, Within: within})
		return
	}
	n.endHunt(nil)
}

// linkAt is the link this node's chain gives the message at step (at most
// the next step): the `prev` of its envelope there, or the machine's.
func (n *node) linkAt(step uint32) [32]byte {
	if int(step) < len(n.chain) {
		return prevOf(n.chain[step])
	}
	return n.m.Prev()
}

// prevOf reads an applied envelope's `prev` field.
func prevOf(raw []byte) [32]byte {
	const at = 4 + 16 + 4 + 4 + 1 + 1
	return [32]byte(raw[at : at+32])
}

// roundOf returns the envelopes of a parallel round whose link
// (roundLink) is want, from a chain and its hashes: the run of envelopes
// that share one `prev` and end right before an envelope whose `prev` is
// want (protocol.md 5.7, fetch-by-hash). Nil when there is none.
func roundOf(c [][]byte, hashes [][32]byte, want [32]byte) [][]byte {
	for i := 1; i < len(c) && i < len(hashes); i++ {
		if prevOf(c[i]) != want || hashes[i-1] == want {
			continue
		}
		anchor := prevOf(c[i-1])
		r := i - 1
		for r > 0 && prevOf(c[r-1]) == anchor {
			r--
		}
		if r < i-1 && roundLink(hashes[r:i]) == want {
			return c[r:i]
		}
	}
	return nil
}

// hunted takes a fetch-by-hash answer of the hunt: the one envelope of the
// hash, or the messages of the parallel round whose link it is; each is
// judged against this chain's message of its step.
func (n *node) hunted(frames [][]byte, failed bool) {
	h := n.hunt
	asked := h.order[h.at]
	var round []*Envelope
	if !failed {
		if prev := n.usable(frames, h.cur.Prev, h.cur.Step-1); prev != nil {
			round = []*Envelope{prev}
		} else {
			round = n.usableRound(frames, h.cur.Prev, h.cur.Step-1)
		}
	}
	if len(round) > 1 {
		for _, e := range round {
			own, err := DecodeEnvelope(n.chain[e.Step])
			if err != nil {
				n.endHunt(nil)
				return
			}
			if v := judgeAgainst(own, e); v != nil {
				n.endHunt(v)
				return
			}
		}
		h.cur = round[0]
		h.depth++
		n.follow()
		return
	}
	var prev *Envelope
	if len(round) == 1 {
		prev = round[0]
	}
	if prev == nil {
		if asked == int(h.cur.Seat) {
			n.c.Log.Warn("fork's signer did not produce the message it links to: not asked again", "seat", asked)
			n.mute[asked] = true
		}
		n.askHunt()
		return
	}
	own, err := DecodeEnvelope(n.chain[prev.Step])
	if err != nil {
		n.endHunt(nil)
		return
	}
	if v := judgeAgainst(own, prev); v != nil {
		n.endHunt(v)
		return
	}
	h.cur = prev
	h.depth++
	n.follow()
}

// endHunt ends the hunt: with a violation, the match.
func (n *node) endHunt(v *Violation) {
	f := n.hunt.fork
	n.hunt = nil
	if v != nil {
		n.c.Log.Warn("fork resolved", "seat", v.Seat, "rule", v.Rule, "step", v.Step)
		n.m.abort(v)
		return
	}
	n.c.Log.Warn("message on another branch, not explained (yet)", "seat", f.Seat, "step", f.Step)
	if n.now >= n.batchEnd {
		n.inBatch, n.forkNext = false, n.now+n.c.StallTicks
	}
}

// usable returns the envelope of a fetch-by-hash answer whose hash is h, if
// it decodes, is for this table, is signed and stands at step.
func (n *node) usable(frames [][]byte, h [32]byte, step uint32) *Envelope {
	for _, raw := range frames {
		if sha256Raw(raw) != h {
			continue
		}
		env, err := DecodeEnvelope(raw)
		if err != nil || env.Table != n.c.Table.ID || int(env.Seat) >= len(n.c.Table.Seats) || env.Step != step {
			continue
		}
		if env.Verify(n.c.Table.Seats[env.Seat].Key, n.m.cfgHash) != nil {
			continue
		}
		return env
	}
	return nil
}

// usableRound returns the envelopes of a fetch-by-hash answer that form a
// parallel round whose link is h, ending at step: at least two, at
// consecutive steps, each decoding, for this table, signed, all on one
// `prev`; nil otherwise.
func (n *node) usableRound(frames [][]byte, h [32]byte, step uint32) []*Envelope {
	k := len(frames)
	if k < 2 || uint32(k-1) > step {
		return nil
	}
	out := make([]*Envelope, k)
	hashes := make([][32]byte, k)
	for i, raw := range frames {
		env, err := DecodeEnvelope(raw)
		if err != nil || env.Table != n.c.Table.ID || int(env.Seat) >= len(n.c.Table.Seats) ||
			env.Step != step-uint32(k-1-i) || int(env.Step) >= len(n.chain) {
			return nil
		}
		if i > 0 && env.Prev != out[0].Prev {
			return nil
		}
		if env.Verify(n.c.Table.Seats[env.Seat].Key, n.m.cfgHash) != nil {
			return nil
		}
		out[i], hashes[i] = env, env.Hash()
	}
	if roundLink(hashes) != h {
		return nil
	}
	return out
}

func (n *node) reject(why string, err error) {
	n.rejects++
	n.c.Log.Warn("rejected message", "why", why, "err", err)
}

// drain takes the buffered envelopes for the current step. Of the envelopes
// that link to this chain's last message, the expected speaker's is the
// next to apply; one by another seat is out-of-turn; two by one seat are
// equivocation. One that links elsewhere is a fork to resolve.
func (n *node) drain() {
	step := n.m.Step()
	envs := n.buf[step]
	if len(envs) == 0 {
		return
	}
	delete(n.buf, step)
	for _, e := range envs {
		n.bufSize -= len(e.Raw)
	}
	seat, kind := n.m.Expect()
	prev := n.m.Prev()
	var chosen *Envelope
	for _, e := range envs {
		if int(e.Seat) == seat && e.Prev == prev && chosen == nil {
			chosen = e
		}
	}
	if chosen != nil {
		// Its seat's message for this step met earlier on another branch.
		if first := n.offChain[[2]uint32{step, uint32(chosen.Seat)}]; first != nil && string(first.Raw) != string(chosen.Raw) {
			n.m.abort(equivocation(first, chosen))
			return
		}
	}
	for _, e := range envs {
		if e == chosen {
			continue
		}
		if e.Prev != prev {
			if v := n.addFork(e); v != nil {
				n.m.abort(v)
				return
			}
			continue
		}
		n.idle = n.now
		if chosen != nil && e.Seat == chosen.Seat {
			n.m.abort(equivocation(chosen, e))
			return
		}
		n.m.abort(outOfTurn(e, seat, kind))
		return
	}
	n.apply = chosen
}

// judgeOwnStep judges, while this seat is to speak (its mover may think for
// minutes), the other seats' messages for its step at once: one on this
// chain's last message is out-of-turn; one on another is a fork.
func (n *node) judgeOwnStep(kind Kind) {
	step, prev := n.m.Step(), n.m.Prev()
	var keep []*Envelope
	for _, e := range n.buf[step] {
		if int(e.Seat) == n.c.Seat {
			keep = append(keep, e)
			continue
		}
		n.bufSize -= len(e.Raw)
		if e.Prev != prev {
			if v := n.addFork(e); v != nil {
				n.m.abort(v)
				return
			}
			continue
		}
		n.m.abort(outOfTurn(e, n.c.Seat, kind))
		return
	}
	if len(keep) == 0 {
		delete(n.buf, step)
		return
	}
	n.buf[step] = keep
}

// Catch-up requests (protocol.md 5.7): the chain from a step on, or the
// one envelope with a given hash.
const (
	fetchLabel     = "okey/fetch/v1"
	fetchHashLabel = "okey/fetch-hash/v1"
	// maxFetchAnswer is the most envelopes one answer carries.
	maxFetchAnswer = 512
	// maxForkDepth bounds how far back a peer follows a fork's links.
	maxForkDepth = 16
	// maxForksPerSigner bounds the forks of one signer waiting to be
	// resolved (one per step and previous hash).
	maxForksPerSigner = 16
)

// fetchRequest asks for the chain from a step on: "okey/fetch/v1" || u32 step.
func fetchRequest(from uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte(fetchLabel), from)
}

// fetchHashRequest asks for the envelope whose SHA-256 is h:
// "okey/fetch-hash/v1" || h.
func fetchHashRequest(h [32]byte) []byte {
	return append([]byte(fetchHashLabel), h[:]...)
}

// Bounds of the reorder buffer: how far ahead a message may be, and how
// many bytes of early messages a peer keeps (one message per seat and step
// besides). Dropped messages are fetched again when their step comes.
const (
	maxAhead    = 1024
	maxBuffered = 32 << 20
)
