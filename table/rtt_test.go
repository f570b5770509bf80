package table

import (
	"os"
	"path/filepath"
	"testing"
)

// hops replays a chain on an ideal network: every message takes exactly
// one hop (half a round trip) from its sender to every other seat, and no
// time to build or check. A seat sends its message of a step once it has
// every message of the steps before that step's round (a parallel round's
// messages answer the round's anchor, protocol.md 5.3; a step outside one
// is a round of its own); a round is the run of messages that share one
// `prev`. It returns each message's send time, in hops from the first.
func hops(t *testing.T, chain [][]byte, n int) (sent []int, envs []*Envelope) {
	t.Helper()
	// known[s] is when seat s holds every message before the current one.
	known := make([]int, n)
	var before []int // known, as it was before the current round
	for k, raw := range chain {
		env, err := DecodeEnvelope(raw)
		if err != nil {
			t.Fatalf("record %d: %v", k, err)
		}
		if k == 0 || env.Prev != envs[k-1].Prev {
			before = append([]int(nil), known...)
		}
		at := before[env.Seat]
		sent = append(sent, at)
		envs = append(envs, env)
		for s := range known {
			arrive := at + 1
			if s == int(env.Seat) {
				arrive = at
			}
			known[s] = max(known[s], arrive)
		}
	}
	return sent, envs
}

// rtt holds a chain's figures in hops (a round trip is two).
type rtt struct {
	turn      int // the most, over every draw: from the draw to its drawer's next move
	handStart int // the most, over every hand: from its first message to its first move
	between   int // the most, over every hand but the first: from the last move before it to its first move
}

func measure(t *testing.T, path string) rtt {
	t.Helper()
	tr := readTranscriptFile(t, path)
	sent, envs := hops(t, tr.Chain, len(tr.Config.Seats))
	var r rtt
	lastMove, handFirst := -1, -1
	for k, e := range envs {
		switch {
		case e.Kind == KindShuffle && e.Seat == 0:
			handFirst = k
		case e.Kind == KindMove && handFirst >= 0:
			r.handStart = max(r.handStart, sent[k]-sent[handFirst])
			if lastMove >= 0 {
				r.between = max(r.between, sent[k]-sent[lastMove])
			}
			handFirst = -1
		}
		if e.Kind == KindMove {
			lastMove = k
			if k+1 < len(envs) && envs[k+1].Kind == KindShare {
				// A draw: its drawer's next message is its next move.
				for j := k + 1; j < len(envs); j++ {
					if envs[j].Seat == e.Seat && envs[j].Kind == KindMove {
						r.turn = max(r.turn, sent[j]-sent[k])
						break
					}
				}
			}
		}
	}
	return r
}

// TestRoundTrips counts the sequential network delays of a turn and of a
// hand's start on an ideal network (one hop each way, nothing else), in
// the conformance suite's honest matches: table protocol 1 (the frozen
// suite, as an earlier okey played them) against 2 (the same matches,
// played again by this okey). A draw's shares answer the draw at once in
// version 2, so a turn costs one round trip beyond the draw (at most 1.3);
// the deal's open rounds, its deal round and the audit are one hop each.
func TestRoundTrips(t *testing.T) {
	dir := filepath.Join("..", "testdata", "conformance")
	for _, c := range []struct {
		name string
		n    int
	}{
		{"honest-classic-2", 2}, {"honest-classic-3", 3}, {"honest-turkish-rummy-4", 4},
		{"honest-101-2", 2}, {"honest-101-3", 3}, {"honest-101-partnerships-4", 4},
	} {
		v1 := measure(t, filepath.Join(dir, "v1", "transcripts", c.name+".okey"))
		v2 := measure(t, filepath.Join(dir, "transcripts", c.name+".okey"))
		t.Logf("%-26s turn %d -> %d hops (RTT %.1f -> %.1f); hand start %d -> %d hops; last move to next hand's first %d -> %d hops",
			c.name, v1.turn, v2.turn, float64(v1.turn)/2, float64(v2.turn)/2, v1.handStart, v2.handStart, v1.between, v2.between)
		// A turn: the draw reaches the others (one hop), their shares reach
		// the drawer (one hop).
		if v2.turn != 2 {
			t.Errorf("%s: a turn takes %d hops beyond the draw in version 2, want 2 (one round trip)", c.name, v2.turn)
		}
		if c.n > 2 && v1.turn != c.n {
			t.Errorf("%s: version 1's turn takes %d hops, want %d (the shares one after another)", c.name, v1.turn, c.n)
		}
		// A hand's start: n shuffles and n re-keys in turn, then one hop
		// for each open round and one for the deal.
		if v2.handStart >= v1.handStart && c.n > 2 {
			t.Errorf("%s: a hand starts in %d hops in version 2, not fewer than version 1's %d", c.name, v2.handStart, v1.handStart)
		}
		if v1.between > 0 && v2.between >= v1.between {
			t.Errorf("%s: from the last move to the next hand's first, %d hops in version 2, not fewer than version 1's %d", c.name, v2.between, v1.between)
		}
	}
}

// TestForkAcrossParallelRound: a seat shows one member one message of a
// parallel round and another member another (a split view); the next
// message, built on the other branch, links to that branch's round link.
// The victim cannot fetch an envelope of that hash: it asks for it by hash
// and gets the round's messages (protocol.md 5.7), judges each against its
// own, and names the seat that signed two for one step, on that proof.
func TestForkAcrossParallelRound(t *testing.T) {
	tr := readTranscriptFile(t, filepath.Join("..", "testdata", "conformance", "transcripts", "honest-classic-3.okey"))
	_, keys, err := LocalConfig(tr.Config.Ruleset, 3, 101)
	if err != nil {
		t.Fatal(err)
	}
	cfg := tr.Config
	for i, s := range cfg.Seats {
		if !s.Key.Equal(keys[i].Public()) {
			t.Fatalf("seat %d's key is not the conformance generator's", i)
		}
	}
	// The first draw-share round: two shares on the draw's hash, then the
	// drawer's move on the round's link.
	var r int
	envs := decodeChain(t, tr.Chain)
	for r = 1; r+2 < len(envs); r++ {
		if envs[r].Kind == KindShare && envs[r+1].Kind == KindShare {
			break
		}
	}
	x, y, next := envs[r], envs[r+1], envs[r+2]
	if x.Prev != y.Prev || next.Prev != roundLink([][32]byte{x.Hash(), y.Hash()}) {
		t.Fatalf("steps %d-%d are not a parallel round and its link", r, r+2)
	}
	// The other branch: seat x's other message for its step, and the
	// drawer's move on that branch's round link.
	x2 := *x
	x2.Raw, x2.verified = nil, nil
	x2.State[0] ^= 1
	if err := x2.Seal(keys[x.Seat], cfg.Hash()); err != nil {
		t.Fatal(err)
	}
	next2 := *next
	next2.Raw, next2.verified = nil, nil
	next2.Prev = roundLink([][32]byte{x2.Hash(), y.Hash()})
	if err := next2.Seal(keys[next.Seat], cfg.Hash()); err != nil {
		t.Fatal(err)
	}
	other := append(append([][]byte(nil), tr.Chain[:r]...), x2.Raw, y.Raw, next2.Raw)
	var otherHashes [][32]byte
	for _, raw := range other {
		otherHashes = append(otherHashes, sha256Raw(raw))
	}

	// The victim: the seat of y, which holds this branch up to the round.
	m, err := NewMachine(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := newNode(nodeConfig{Table: cfg, Seat: int(y.Seat), StallTicks: 8, WithholdTicks: 1000, MoveWithholdTicks: 1000}, m)
	for k := 0; k <= r+1; k++ {
		if err := n.applyEnv(envs[k]); err != nil {
			t.Fatalf("step %d: %v", k, err)
		}
	}
	n.Step(next2.Raw)
	rd := n.Ready()
	if len(rd.Fetches) != 1 || !rd.Fetches[0].ByHash || rd.Fetches[0].Hash != next2.Prev || rd.Fetches[0].Seat != int(next.Seat) {
		t.Fatalf("want one fetch-by-hash of the round link from seat %d, have %+v", next.Seat, rd.Fetches)
	}
	_ = n.Advance(ready{Fetches: rd.Fetches})
	answer := roundOf(other, otherHashes, next2.Prev)
	if len(answer) != 2 || string(answer[0]) != string(x2.Raw) || string(answer[1]) != string(y.Raw) {
		t.Fatalf("the other branch's member answers %d envelopes, want the round's two", len(answer))
	}
	n.Fetched(rd.Fetches[0].ID, answer, false)
	v := n.m.Aborted()
	if v == nil || v.Rule != RuleEquivocation || v.Seat != int(x.Seat) || len(v.Evidence) != 2 ||
		string(v.Evidence[0]) != string(x.Raw) || string(v.Evidence[1]) != string(x2.Raw) {
		t.Fatalf("want seat %d named for equivocation on its two messages, have %+v", x.Seat, v)
	}
}

// TestOtherVersionNeverApplied: a peer of table protocol 1 and one of 2 at
// one table (their lobbies keep them apart, 7.5; a tournament's table
// could still seat them): each drops the other's envelopes as of another
// version (5.2 check 1), names no one, and never applies them, so the table
// stalls unfinished instead of desyncing. A transcript whose chain mixes
// versions is not what the peers wrote (status 2).
func TestOtherVersionNeverApplied(t *testing.T) {
	cfg, keys, err := LocalConfig("classic", 2, 7)
	if err != nil {
		t.Fatal(err)
	}
	hello := func(seat int, version uint8, prev [32]byte, step uint32) *Envelope {
		e := &Envelope{Version: version, Table: cfg.ID, Step: step, Seat: uint8(seat), Kind: KindHello, Prev: prev,
			Body: helloBody{ConfigHash: cfg.Hash()}.encode()}
		m, _ := NewMachineVersion(cfg, nil, version)
		e.State = m.StateHash()
		if step > 0 {
			e.State = [32]byte{} // not checked before the version
		}
		if err := e.Seal(keys[seat], cfg.Hash()); err != nil {
			t.Fatal(err)
		}
		return e
	}
	for _, v := range []uint8{Version1, Version} {
		other := Version + Version1 - v
		m, err := NewMachineVersion(cfg, nil, v)
		if err != nil {
			t.Fatal(err)
		}
		n := newNode(nodeConfig{Table: cfg, Seat: 1, StallTicks: 8, WithholdTicks: 1000, MoveWithholdTicks: 1000}, m)
		n.Step(hello(0, other, [32]byte{}, 0).Raw)
		if rd := n.Ready(); rd.Apply != nil || rd.Violation != nil || n.rejects != 1 || n.m.Step() != 0 {
			t.Fatalf("version %d peer: a version %d hello was applied or blamed (%+v, %d rejects)", v, other, rd, n.rejects)
		}
		n.Step(hello(0, v, [32]byte{}, 0).Raw)
		if rd := n.Ready(); rd.Apply == nil {
			t.Fatalf("version %d peer: its own version's hello is not taken", v)
		}
	}
	first := hello(0, Version, [32]byte{}, 0)
	tr := &Transcript{Config: cfg, Chain: [][]byte{first.Raw, hello(1, Version1, first.Hash(), 1).Raw}}
	if r := Verify(tr); r.Status() != StatusInvalid {
		t.Fatalf("a chain of two versions: status %v, want invalid", r.Status())
	}
}

// TestNodeSpeaksAtOnceInParallelRound: once a draw is applied, a seat whose
// place in the draw-share round is not the first is asked to speak at once
// (not after the share before it), for its own place's step, with the
// round's anchor and its place's state hash; its message waits in the
// buffer and goes into the chain after the earlier place's message, so the
// chain is the one every seat writes.
func TestNodeSpeaksAtOnceInParallelRound(t *testing.T) {
	tr, envs, r := shareRound(t)
	first, second := envs[r], envs[r+1]
	m, err := NewMachine(tr.Config, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := newNode(nodeConfig{Table: tr.Config, Seat: int(second.Seat), StallTicks: 8, WithholdTicks: 1000, MoveWithholdTicks: 1000}, m)
	for k := 0; k < r; k++ {
		if err := n.applyEnv(envs[k]); err != nil {
			t.Fatalf("step %d: %v", k, err)
		}
	}
	rd := n.Ready()
	if rd.Speak != KindShare {
		t.Fatalf("after the draw, seat %d (second sharer) is not asked to speak: %+v", second.Seat, rd)
	}
	if step, _, _ := n.m.SpeakAt(int(second.Seat)); step != second.Step || n.m.StateHashAt(step) != second.State || n.m.Prev() != second.Prev {
		t.Fatalf("seat %d would sign step %d (want %d) on another link or state", second.Seat, step, second.Step)
	}
	if err := n.Propose(second); err != nil {
		t.Fatal(err)
	}
	rd = n.Ready()
	if rd.Apply != second || !rd.Own {
		t.Fatalf("its own message is not handed out to be sent: %+v", rd)
	}
	if err := n.Advance(rd); err != nil {
		t.Fatal(err)
	}
	if rd := n.Ready(); rd.Speak != 0 || rd.Apply != nil || n.m.Step() != uint32(r) {
		t.Fatalf("sent ahead of its step, the seat is asked again or applies it early: %+v", rd)
	}
	n.Step(first.Raw)
	for k := r; k <= r+1; k++ {
		rd := n.Ready()
		if rd.Apply == nil || string(rd.Apply.Raw) != string(tr.Chain[k]) {
			t.Fatalf("step %d: the next to apply is not the chain's", k)
		}
		if err := n.Advance(rd); err != nil {
			t.Fatal(err)
		}
	}
	if n.m.Step() != uint32(r+2) || n.m.Prev() != envs[r+2].Prev {
		t.Fatalf("after the round: step %d, link differs from the chain's", n.m.Step())
	}
}

// shareRound is an honest classic match of the conformance suite, its
// envelopes, and the step of the first draw-share round's first share.
func shareRound(t *testing.T) (*Transcript, []*Envelope, int) {
	t.Helper()
	tr := readTranscriptFile(t, filepath.Join("..", "testdata", "conformance", "transcripts", "honest-classic-3.okey"))
	envs := decodeChain(t, tr.Chain)
	r := 1
	for ; r+1 < len(envs); r++ {
		if envs[r].Kind == KindShare && envs[r+1].Kind == KindShare {
			break
		}
	}
	return tr, envs, r
}

// readTranscriptFile reads the transcript at path.
func readTranscriptFile(t *testing.T, path string) *Transcript {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := ReadTranscript(f)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// decodeChain decodes a transcript's chain.
func decodeChain(t *testing.T, chain [][]byte) []*Envelope {
	t.Helper()
	envs := make([]*Envelope, 0, len(chain))
	for _, raw := range chain {
		e, err := DecodeEnvelope(raw)
		if err != nil {
			t.Fatal(err)
		}
		envs = append(envs, e)
	}
	return envs
}

// TestParallelRoundAsksSooner: a seat waiting for the others' messages of a
// parallel round (here the second sharer of a draw, its own share sent)
// asks a member for the chain after a quarter of the stall interval with
// none of them, since every seat answers the round's anchor at once; a
// seat waiting for a move (a person may think) still waits the whole
// stall interval, unless a member's connection changed since its last
// progress (LinkChanged): then an eighth of it.
func TestParallelRoundAsksSooner(t *testing.T) {
	tr, envs, r := shareRound(t)
	const stall = 8
	// asksAfter is how many ticks the node waits, from its last progress,
	// before it asks a member for the chain.
	asksAfter := func(n *node) int {
		t.Helper()
		for tick := 1; tick <= 2*stall; tick++ {
			n.Tick()
			if rd := n.Ready(); len(rd.Fetches) > 0 {
				if f := rd.Fetches[0]; f.ByHash || f.From != n.m.Step() {
					t.Fatalf("tick %d: a fetch of another kind: %+v", tick, f)
				}
				// Sent (as Peer.Run does), and every member answers nothing.
				for len(rd.Fetches) > 0 {
					if err := n.Advance(ready{Fetches: rd.Fetches}); err != nil {
						t.Fatal(err)
					}
					for _, f := range rd.Fetches {
						n.Fetched(f.ID, nil, true)
					}
					rd = n.Ready()
				}
				return tick
			}
		}
		t.Fatalf("no fetch in %d ticks", 2*stall)
		return 0
	}
	start := func(seat, upTo int) *node {
		t.Helper()
		m, err := NewMachine(tr.Config, nil)
		if err != nil {
			t.Fatal(err)
		}
		n := newNode(nodeConfig{Table: tr.Config, Seat: seat, StallTicks: stall, WithholdTicks: 1000, MoveWithholdTicks: 1000}, m)
		for k := 0; k < upTo; k++ {
			if err := n.applyEnv(envs[k]); err != nil {
				t.Fatalf("step %d: %v", k, err)
			}
		}
		return n
	}

	second := envs[r+1]
	n := start(int(second.Seat), r)
	if err := n.Propose(second); err != nil {
		t.Fatal(err)
	}
	if err := n.Advance(n.Ready()); err != nil {
		t.Fatal(err)
	}
	if got := asksAfter(n); got != stall/4 {
		t.Errorf("in a parallel round, its own share sent: asked after %d ticks, want %d", got, stall/4)
	}

	// Before the draw: a move is awaited from its seat.
	mv := r - 1
	for envs[mv].Kind != KindMove {
		mv--
	}
	waiter := (int(envs[mv].Seat) + 1) % len(tr.Config.Seats)
	n = start(waiter, mv)
	if got := asksAfter(n); got != stall {
		t.Errorf("waiting for a move: asked after %d ticks, want %d", got, stall)
	}

	// A member's connection changed while a move is awaited: the next ask
	// comes an eighth of the stall interval after the last, then as before.
	n = start(waiter, mv)
	for range 3 {
		n.Tick()
	}
	n.LinkChanged()
	if got := asksAfter(n); got != stall/8 {
		t.Errorf("after a link changed, 3 ticks into the wait: asked %d ticks later, want %d", got, stall/8)
	}
	if got := asksAfter(n); got != stall {
		t.Errorf("the ask after that: %d ticks, want %d", got, stall)
	}

	// Progress after the change (the message before the move applied):
	// nothing was lost, the wait for the move is whole.
	n = start(waiter, mv-1)
	for range 3 {
		n.Tick()
	}
	n.LinkChanged()
	if err := n.applyEnv(envs[mv-1]); err != nil {
		t.Fatal(err)
	}
	if seat, kind := n.m.Expect(); kind != KindMove || seat == waiter {
		t.Fatalf("after step %d: seat %d to send %v, want another's move", mv-1, seat, kind)
	}
	if got := asksAfter(n); got != stall {
		t.Errorf("progress after the link changed: asked after %d ticks, want %d", got, stall)
	}
}
