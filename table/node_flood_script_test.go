package table

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/okey-game/okey/engine"
)

// The fork-flood commands of the node scripts (protocol.md 5.2, issue 20's
// first section): a member floods the node with bogus forks, each linking
// to a made-up previous message, and answers its fetches for them late.
// The members' answers are played by the script in ticks (scriptNet), as
// the loop and the transport would bring them, so that what the timing
// tests measured in wall time is counted here in ticks, the same every run.
//
//	new ... match=SEED        the node's table is an honest one-round match
//	                          (RunLocal, seeded), whose chain play delivers
//	serve seat=A late=T [chains]
//	                          the members answer the node's fetches: seat A,
//	                          asked for a made-up link, answers after T
//	                          ticks (at once with T=0) with the made-up
//	                          message before it (with chains) or nothing;
//	                          the others have nothing to give for a made-up
//	                          link and answer at once; a real message (of
//	                          the match, or one the script signed) is given
//	                          at once by whoever is asked
//	flood count=N             seat A signs N forks (at most one for each
//	                          past step another seat spoke, the latest
//	                          first), each linking to a made-up chain of at
//	                          most maxForkDepth of its messages, and sends
//	                          them to the node
//	send NAME...              the node receives these signed envelopes
//	play to=K [every=T]       the match's messages up to step K arrive, one
//	                          every T ticks; the node's own are proposed
//	                          when it is asked to speak. It prints each
//	                          step applied later than the tick it arrived
//	run n=K                   K ticks with the members answering (fewer
//	                          when the match ends)
//	fetches                   the fetches by hash the node made: how many,
//	                          their ticks in flight in all, and who was
//	                          asked for a made-up link
//
// An answer due at a tick reaches the node at that tick, after its Tick;
// an answer due at once reaches it before the next command.

// scriptNet is the members' side of a node script: the answers to the
// node's fetches, the made-up links, and what the node's fetches cost.
type scriptNet struct {
	flooder int
	late    int
	chains  bool
	served  bool

	match  [][]byte // the honest match's chain (match=SEED)
	sent   int      // its messages delivered so far
	madeUp map[[32]byte][]byte
	made   int // made-up messages and links signed so far (their nonces)

	pending []scriptAnswer
	held    int         // ticks the node's fetches by hash were in flight, in all
	holds   int         // their number
	asked   map[int]int // fetches of made-up links, by the member asked
}

type scriptAnswer struct {
	id     uint64
	due    int
	frames [][]byte
	failed bool
}

// matchCache keeps the honest matches by seed: a script may start several.
var matchCache = map[uint64]*LocalResult{}

// honestMatch is the seeded one-round turkish-rummy match of n seats.
func (s *nodeScript) honestMatch(n int, seed uint64) *LocalResult {
	if r := matchCache[seed]; r != nil && len(r.Config.Seats) == n {
		return r
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := RunLocal(ctx, LocalOptions{Ruleset: "turkish-rummy:rounds=1", Movers: movers(n, seed), Seed: seed,
		Rands: seededRands(n, seed), Stall: time.Second, Withhold: 10 * time.Minute})
	if err != nil {
		s.t.Fatal(err)
	}
	for i, r := range res.Results {
		if r.Violation != nil || r.Stalled != nil {
			s.t.Fatalf("the honest match %d: seat %d ended with %v / %v", seed, i, r.Violation, r.Stalled)
		}
	}
	matchCache[seed] = res
	return res
}

func (s *nodeScript) netCmd(words []string, kv map[string]string) (string, bool) {
	if s.net == nil {
		s.net = &scriptNet{flooder: -1, madeUp: map[[32]byte][]byte{}, asked: map[int]int{}}
	}
	nt := s.net
	switch words[0] {
	case "serve":
		nt.flooder, nt.late, nt.served = s.num(kv, "seat", 0), s.num(kv, "late", 0), true
		nt.chains = len(words) > 1 && words[1] == "chains"
		return "nothing", true
	case "flood":
		return s.flood(s.num(kv, "count", 1)), true
	case "send":
		for _, name := range words[1:] {
			s.n.Step(s.env(name).Raw)
			s.pump()
		}
		return s.summary(), true
	case "play":
		return s.play(s.num(kv, "to", 0), s.num(kv, "every", 0)), true
	case "run":
		for range s.num(kv, "n", 1) {
			if rd := s.n.Ready(); rd.Violation != nil || rd.Stall != nil || rd.Failure != nil || rd.Done {
				break
			}
			s.tickNet()
		}
		return s.summary(), true
	case "fetches":
		var who []string
		var seats []int
		for seat := range nt.asked {
			seats = append(seats, seat)
		}
		sort.Ints(seats)
		for _, seat := range seats {
			who = append(who, fmt.Sprintf("seat %d %d times", seat, nt.asked[seat]))
		}
		if len(who) == 0 {
			who = []string{"no one"}
		}
		return fmt.Sprintf("%d fetches by hash, %d ticks in flight in all (stall %d); asked for a made-up link: %s",
			nt.holds, nt.held, s.n.c.StallTicks, strings.Join(who, ", ")), true
	}
	return "", false
}

// summary is the node's state after a command that runs it: how the match
// ended, if it did, then the tick and the step it is at.
func (s *nodeScript) summary() string {
	out := s.ends(s.n.Ready())
	out = append(out, fmt.Sprintf("tick %d, step %d", s.n.now, s.n.m.Step()))
	return strings.Join(out, "\n")
}

// pump does what the node's Ready says until it says nothing new: starts
// its fetches (the members' answers are scheduled), applies, and hands it
// the answers due. It returns the steps applied.
func (s *nodeScript) pump() (applied []uint32) {
	for range 1 << 16 {
		rd := s.n.Ready()
		if rd.Violation != nil || rd.Stall != nil || rd.Failure != nil || rd.Done {
			return applied
		}
		moved := len(rd.Fetches) > 0 || rd.Apply != nil
		if moved {
			if rd.Apply != nil {
				applied = append(applied, rd.Apply.Step)
			}
			if err := s.n.Advance(ready{Fetches: rd.Fetches, Apply: rd.Apply, Own: rd.Own}); err != nil {
				s.t.Fatal(err)
			}
			for _, f := range rd.Fetches {
				s.answer(f)
			}
		}
		if s.deliver() {
			moved = true
		}
		if !moved {
			return applied
		}
	}
	s.t.Fatal("the node never settles")
	return nil
}

// tickNet is one tick: the node's Tick, then the answers due, then what
// the node does with them.
func (s *nodeScript) tickNet() []uint32 {
	s.n.Tick()
	return s.pump()
}

// deliver hands the node the answers due by now.
func (s *nodeScript) deliver() bool {
	nt := s.net
	var keep []scriptAnswer
	var due []scriptAnswer
	for _, a := range nt.pending {
		if a.due <= s.n.now {
			due = append(due, a)
		} else {
			keep = append(keep, a)
		}
	}
	nt.pending = keep
	for _, a := range due {
		s.n.Fetched(a.id, a.frames, a.failed)
	}
	return len(due) > 0
}

// answer schedules the members' answer to fetch f.
func (s *nodeScript) answer(f fetchReq) {
	nt := s.net
	a := scriptAnswer{id: f.ID, due: s.n.now}
	if !f.ByHash {
		// A catch-up: the members have what the match delivered.
		if int(f.From) < nt.sent {
			a.frames = nt.match[f.From:nt.sent]
		}
		nt.pending = append(nt.pending, a)
		return
	}
	answer, made := nt.madeUp[f.Hash]
	switch {
	case made && f.Seat == nt.flooder:
		nt.asked[f.Seat]++
		if nt.late >= f.Within {
			a.due, a.failed = s.n.now+f.Within, true
		} else {
			a.due = s.n.now + nt.late
			if answer != nil {
				a.frames = [][]byte{answer}
			}
		}
	case made:
		nt.asked[f.Seat]++
	default:
		if raw := s.known(f.Hash); raw != nil {
			a.frames = [][]byte{raw}
		}
	}
	nt.held += a.due - s.n.now
	nt.holds++
	nt.pending = append(nt.pending, a)
}

// known is the message of hash h the members have: one of the match's, or
// one the script signed.
func (s *nodeScript) known(h [32]byte) []byte {
	for _, raw := range s.net.match {
		if sha256Raw(raw) == h {
			return raw
		}
	}
	if name, ok := s.names[h]; ok {
		if e := s.envs[name]; e != nil {
			return e.Raw
		}
	}
	return nil
}

// play delivers the match's messages up to step to, one every every ticks.
func (s *nodeScript) play(to, every int) string {
	nt := s.net
	if nt.match == nil {
		s.t.Fatal("play: no match (new ... match=SEED)")
	}
	arrived := map[uint32]int{}
	var late []string
	from := nt.sent
	note := func(steps []uint32) {
		for _, k := range steps {
			if at, ok := arrived[k]; ok && s.n.now > at {
				late = append(late, fmt.Sprintf("step %d applied %d ticks after it arrived", k, s.n.now-at))
			}
			delete(arrived, k)
		}
	}
	for nt.sent < to && nt.sent < len(nt.match) {
		raw := nt.match[nt.sent]
		env, err := DecodeEnvelope(raw)
		if err != nil {
			s.t.Fatal(err)
		}
		arrived[env.Step] = s.n.now
		nt.sent++
		if int(env.Seat) == s.n.c.Seat {
			if s.n.Ready().Speak == 0 {
				return fmt.Sprintf("step %d: the node is not asked to speak\n%s", env.Step, s.summary())
			}
			if err := s.n.Propose(env); err != nil {
				s.t.Fatal(err)
			}
		} else {
			s.n.Step(raw)
		}
		note(s.pump())
		if s.n.m.Done() {
			break
		}
		for range every {
			note(s.tickNet())
		}
	}
	for k := range arrived {
		late = append(late, fmt.Sprintf("step %d not applied", k))
	}
	sort.Strings(late)
	out := fmt.Sprintf("steps %d to %d arrived, one every %d ticks", from, nt.sent-1, every)
	if len(late) == 0 {
		out += ": each applied the tick it arrived"
	} else {
		out += "\n" + strings.Join(late, "\n")
	}
	return out + "\n" + s.summary()
}

// flood sends count bogus forks of the flooder to the node, for the latest
// past steps another seat spoke (a second message of the flooder for one
// step would be equivocation, named at once).
func (s *nodeScript) flood(count int) string {
	nt := s.net
	if !nt.served {
		s.t.Fatal("flood: no serve")
	}
	speaker := func(k uint32) int {
		e, err := DecodeEnvelope(s.n.chain[k])
		if err != nil {
			s.t.Fatal(err)
		}
		return int(e.Seat)
	}
	var steps []string
	sent := 0
	for k := s.n.m.Step(); k > 0 && sent < count; k-- {
		if speaker(k-1) == nt.flooder {
			continue
		}
		raw := s.bogus(k-1, maxForkDepth, speaker)
		steps = append(steps, fmt.Sprint(k-1))
		sent++
		s.n.Step(raw)
	}
	s.pump()
	return fmt.Sprintf("%d forks of seat %d, for steps %s\n%s", sent, nt.flooder, strings.Join(steps, " "), s.summary())
}

// bogus signs a message of the flooder for step k linking to a made-up
// previous message: with chains, its signed message for step k-1 (itself
// made the same way, while the step before was another seat's and depth
// lasts), else a hash nobody can produce.
func (s *nodeScript) bogus(k uint32, depth int, speaker func(uint32) int) []byte {
	nt := s.net
	nt.made++
	id := nt.made
	var prev [32]byte
	var answer []byte
	if nt.chains && depth > 0 && k > 0 && speaker(k-1) != nt.flooder {
		answer = s.bogus(k-1, depth-1, speaker)
		prev = sha256Raw(answer)
	} else {
		prev = sha256.Sum256(binary.BigEndian.AppendUint64([]byte("made-up link "), uint64(id)))
	}
	nt.madeUp[prev] = answer
	env := &Envelope{Table: s.cfg.ID, Step: k, Seat: uint8(nt.flooder), Kind: KindMove, Prev: prev,
		Body: moveBody{Action: engine.ActDraw, Slot: engine.NoSlot}.encode()}
	binary.BigEndian.PutUint64(env.State[:], uint64(id))
	if err := env.Seal(s.keys[nt.flooder], s.cfg.Hash()); err != nil {
		s.t.Fatal(err)
	}
	return env.Raw
}
