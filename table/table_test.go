package table

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
)

// simpleMover draws, wins when it can, and otherwise discards the tile the
// analysis likes least. It sees only the seat's view.
type simpleMover struct{ rng *rand.Rand }

func (s *simpleMover) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	seat, drawn := h.Turn()
	if !drawn {
		if h.StockLen() == 0 {
			return engine.Action{Kind: engine.ActExhaust, Seat: seat}, nil
		}
		return engine.Action{Kind: engine.ActDraw, Seat: seat}, nil
	}
	slots, faces := v.Rack(h)
	for _, sl := range slots {
		if a, ok := v.WinAction(h, sl); ok {
			return a, nil
		}
	}
	pick := slots[s.rng.IntN(len(slots))]
	if best, _ := engine.BestDiscards(h.Okey(), faces); len(best) > 0 && len(faces) == 15 {
		for i, f := range faces {
			if f == best[0] {
				pick = slots[i]
			}
		}
	}
	return engine.Action{Kind: engine.ActDiscard, Seat: seat, Slot: pick}, nil
}

func movers(n int, seed uint64) []Mover {
	out := make([]Mover, n)
	for i := range out {
		out[i] = &simpleMover{rng: rand.New(rand.NewPCG(seed, uint64(i)))}
	}
	return out
}

func run(t *testing.T, ruleset string, n int, seed uint64, o LocalOptions) *LocalResult {
	t.Helper()
	o.Ruleset, o.Movers, o.Seed = ruleset, movers(n, seed), seed
	return runOpts(t, o)
}

func checkHonest(t *testing.T, res *LocalResult) {
	t.Helper()
	want := res.Peers[0].Chain()
	for i, r := range res.Results {
		if r.Violation != nil {
			t.Fatalf("peer %d: violation %v", i, r.Violation)
		}
		if !r.Machine.Done() {
			t.Fatalf("peer %d not done", i)
		}
		got := res.Peers[i].Chain()
		if len(got) != len(want) {
			t.Fatalf("peer %d chain has %d steps, peer 0 %d", i, len(got), len(want))
		}
		for k := range got {
			if string(got[k]) != string(want[k]) {
				t.Fatalf("peer %d differs at step %d", i, k)
			}
		}
		if r.Machine.StateHash() != res.Results[0].Machine.StateHash() {
			t.Fatalf("peer %d state differs", i)
		}
	}
	rep := Verify(res.Transcript(-1))
	if !rep.Honest {
		t.Fatalf("verify: %+v", rep)
	}
}

// matrix is every preset with 2, 3 and 4 players, each in its quick form
// (one or two hands), plus two longer matches: the next dealer, scores
// carried over, strokes and partnerships.
var matrix = []struct {
	ruleset string
	n       int
}{
	{"classic:points=2", 2}, {"classic:points=2", 3}, {"classic:points=2", 4},
	{"turkish-rummy:rounds=1", 2}, {"turkish-rummy:rounds=1", 3}, {"turkish-rummy:rounds=1", 4},
	{"german:rounds=1", 2}, {"german:rounds=1", 3}, {"german:rounds=1", 4},
}

// raceShare: the cases of a match matrix that also run under the race
// detector. The race detector needs each code path once, not every ruleset
// at every table size; the whole matrix runs without it (lane.NoRace), where
// a match is many times faster.
var (
	honestRaceShare = []int{4, 6, 10}
	faultyRaceShare = []int{1, 5}
	// the cheats whose catching also runs under the race detector: a
	// shuffle's proof, a silent seat (the stall's timers) and two signed
	// messages for one step (the evidence path); the others are the same
	// code paths with other bytes.
	cheatsRaceShare = []Cheat{CheatBadProof, CheatWithhold, CheatEquivocate}
)

func inShare(i int, share []int) bool {
	for _, k := range share {
		if k == i {
			return true
		}
	}
	return false
}

func honestCases() []struct {
	ruleset string
	n       int
} {
	return append(matrix[:len(matrix):len(matrix)],
		struct {
			ruleset string
			n       int
		}{"german:rounds=2,strokes", 4},
		struct {
			ruleset string
			n       int
		}{"classic:deal=simple,indicator-last,points=4", 3})
}

func TestHonestMatches(t *testing.T) {
	lane.NoRace(t)
	honestMatches(t, nil)
}

// TestHonestMatchesRaced: TestHonestMatches's race share.
func TestHonestMatchesRaced(t *testing.T) {
	lane.RaceOnly(t)
	honestMatches(t, honestRaceShare)
}

func honestMatches(t *testing.T, share []int) {
	for i, tc := range honestCases() {
		if share != nil && !inShare(i, share) {
			continue
		}
		t.Run(fmt.Sprintf("%s/%d", tc.ruleset, tc.n), func(t *testing.T) {
			checkHonest(t, run(t, tc.ruleset, tc.n, uint64(10+i), LocalOptions{}))
		})
	}
}

func TestFaultyNetworkFinishes(t *testing.T) {
	lane.NoRace(t)
	faultyNetwork(t, nil)
}

// TestFaultyNetworkFinishesRaced: TestFaultyNetworkFinishes's race share.
func TestFaultyNetworkFinishesRaced(t *testing.T) {
	lane.RaceOnly(t)
	faultyNetwork(t, faultyRaceShare)
}

func faultyNetwork(t *testing.T, share []int) {
	f := Faults{Drop: 0.05, Dup: 0.05, Reorder: 0.1, Delay: 2 * time.Millisecond}
	// The matches run in parallel: on this network a match mostly waits
	// (each lost message costs its receiver a Stall before it asks again;
	// about a sixth of the wall time is CPU), and they share nothing. In
	// one group, so that the test's time (go test -json's) is theirs.
	t.Run("matches", func(t *testing.T) {
		for i, tc := range matrix {
			if share != nil && !inShare(i, share) {
				continue
			}
			t.Run(fmt.Sprintf("%s/%d", tc.ruleset, tc.n), func(t *testing.T) {
				t.Parallel()
				checkHonest(t, run(t, tc.ruleset, tc.n, uint64(20+i), LocalOptions{Faults: f, Stall: 150 * time.Millisecond, Cheater: -1}))
			})
		}
	})
}

// TestCheatsAreCaught: every cheat is caught by every honest seat, which
// names the cheater, and verify names it too (a silent seat is named as
// stalled, never as a cheat). Real bots: they fail on a tile they cannot
// read, so junk must never reach a mover.
func TestCheatsAreCaught(t *testing.T) {
	lane.NoRace(t)
	cheatsAreCaught(t, nil)
}

// TestCheatsAreCaughtRaced: the race detector's share of it.
func TestCheatsAreCaughtRaced(t *testing.T) {
	lane.RaceOnly(t)
	cheatsAreCaught(t, cheatsRaceShare)
}

func cheatsAreCaught(t *testing.T, share []Cheat) {
	for i, c := range Cheats {
		if c == CheatReplay {
			continue // it changes nothing: TestReplayFromEarlierMatch
		}
		if share != nil && !slices.Contains(share, c) {
			continue
		}
		t.Run(string(c), func(t *testing.T) {
			const cheater = 1
			o := LocalOptions{Cheat: c, Cheater: cheater}
			if c == CheatWithhold {
				// Only the cheater is silent this long: its victims wait for
				// a move (cheap), never for an honest shuffle.
				o.Withhold = 6 * time.Second
			}
			o.Ruleset, o.Movers, o.Seed = "turkish-rummy:rounds=1", realBots(3), uint64(30+i)
			res := runOpts(t, o)
			if c == CheatWithhold {
				// Silence is never proof: the others say who stopped
				// answering, and the transcript is unfinished, not cheating.
				for seat, r := range res.Results {
					if seat == cheater {
						continue
					}
					if r.Violation != nil || r.Stalled == nil || r.Stalled.Seat != cheater {
						t.Fatalf("seat %d: violation %v, stalled %v; want seat %d stalled, no one named", seat, r.Violation, r.Stalled, cheater)
					}
				}
				rep := Verify(res.Transcript(cheater))
				if rep.Status() != StatusUnfinished || rep.Next == nil || rep.Next.Seat != cheater {
					t.Fatalf("verify: status %v next %+v violation %v", rep.Status(), rep.Next, rep.Violation)
				}
				return
			}
			for seat, r := range res.Results {
				if seat == cheater {
					continue
				}
				if r.Violation == nil {
					t.Fatalf("seat %d finished without catching %s", seat, c)
				}
				if r.Violation.Seat != cheater {
					t.Fatalf("seat %d blamed seat %d (%v), want %d", seat, r.Violation.Seat, r.Violation, cheater)
				}
			}
			rep := Verify(res.Transcript(cheater))
			if rep.Honest || rep.Violation == nil || rep.Violation.Seat != cheater {
				t.Fatalf("verify: honest=%v violation=%v invalid=%v", rep.Honest, rep.Violation, rep.Invalid)
			}
		})
	}
}

func TestTamperedTranscriptFails(t *testing.T) {
	lane.NoRace(t) // a match and its tampered copies verified: verify runs under the race detector in every raced match (checkHonest)
	res := run(t, "turkish-rummy:rounds=1", 2, 40, LocalOptions{})
	tr := res.Transcript(-1)
	if !Verify(tr).Honest {
		t.Fatal("honest transcript fails")
	}
	rng := rand.New(rand.NewPCG(4, 4))
	cp := func() *Transcript {
		c := *tr
		c.Chain = nil
		for _, e := range tr.Chain {
			c.Chain = append(c.Chain, append([]byte(nil), e...))
		}
		return &c
	}
	for k := 0; k < 40; k++ {
		c := cp()
		i := rng.IntN(len(c.Chain))
		c.Chain[i][rng.IntN(len(c.Chain[i]))] ^= byte(1 + rng.IntN(255))
		if Verify(c).Honest {
			t.Fatalf("flipped byte in record %d verified", i)
		}
	}
	c := cp()
	c.Chain = append(c.Chain[:5], c.Chain[6:]...)
	if Verify(c).Honest {
		t.Fatal("removed record verified")
	}
	c = cp()
	c.Chain[3], c.Chain[4] = c.Chain[4], c.Chain[3]
	if Verify(c).Honest {
		t.Fatal("reordered records verified")
	}
	c = cp()
	c.Chain = c.Chain[:len(c.Chain)-1]
	if Verify(c).Honest {
		t.Fatal("cut transcript verified")
	}
	other := run(t, "turkish-rummy:rounds=1", 2, 41, LocalOptions{})
	c = cp()
	c.Chain[7] = other.Transcript(-1).Chain[7]
	if Verify(c).Honest {
		t.Fatal("replaced record verified")
	}
}

func TestTranscriptFileRoundTrip(t *testing.T) {
	res := run(t, "turkish-rummy:rounds=1", 2, 50, LocalOptions{})
	var buf bytes.Buffer
	tr := res.Transcript(-1)
	if err := WriteTranscript(&buf, tr); err != nil {
		t.Fatal(err)
	}
	got, err := ReadTranscript(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Chain) != len(tr.Chain) || !Verify(got).Honest {
		t.Fatal("round trip lost the transcript")
	}
	for _, bad := range [][]byte{nil, []byte("hello"), buf.Bytes()[:len(buf.Bytes())-3]} {
		if t2, err := ReadTranscript(bytes.NewReader(bad)); err == nil && Verify(t2).Honest {
			t.Fatalf("bad file accepted")
		}
	}
}

// gateMover waits for its gate before its first move (a person thinking).
type gateMover struct {
	Mover
	gate    chan struct{}
	waiting chan struct{}
	once    bool
}

func (g *gateMover) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	if !g.once {
		g.once = true
		close(g.waiting)
		<-g.gate
	}
	return g.Mover.Move(h, v)
}

// TestMoveWithhold: a player who thinks longer than Withhold is not blamed
// while MoveWithhold has not run out; one silent past MoveWithhold is.
func TestMoveWithhold(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		withhold, move, think time.Duration
		blamed                bool
	}{
		// Withhold is short, but not so short that a slow honest shuffle
		// under the race detector could trip it.
		{"thinking", 4 * time.Second, 10 * time.Minute, 5 * time.Second, false},
		{"gone", 10 * time.Minute, 500 * time.Millisecond, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms := movers(2, 60)
			g := &gateMover{Mover: ms[1], gate: make(chan struct{}), waiting: make(chan struct{})}
			ms[1] = g
			cfg, keys, err := LocalConfig("turkish-rummy:rounds=1", 2, 60)
			if err != nil {
				t.Fatal(err)
			}
			net := NewMemNet(Faults{}, 60)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			results := make([]Result, 2)
			errs := make([]error, 2)
			done := make(chan int, 2)
			for i := 0; i < 2; i++ {
				p, err := NewPeer(PeerConfig{Table: cfg, Seat: i, Key: keys[i], Transport: net.Join(cfg.Seats[i].ID),
					Mover: ms[i], Stall: 100 * time.Millisecond, Withhold: tc.withhold, MoveWithhold: tc.move})
				if err != nil {
					t.Fatal(err)
				}
				go func() { results[i], errs[i] = p.Run(ctx); done <- i }()
			}
			<-g.waiting
			if tc.blamed {
				if i := <-done; i != 0 {
					t.Fatalf("seat %d ended first", i)
				}
				if st := results[0].Stalled; st == nil || st.Seat != 1 || st.Kind != KindMove || results[0].Violation != nil {
					t.Fatalf("verdict %v / %v, want seat 1 stalled on a move, no one named", results[0].Violation, st)
				}
				cancel()
				close(g.gate)
				<-done
				return
			}
			time.Sleep(tc.think) // longer than Withhold: must not matter
			close(g.gate)
			<-done
			<-done
			for i, r := range results {
				if errs[i] != nil || r.Violation != nil || !r.Machine.Done() {
					t.Fatalf("seat %d: %v %v", i, errs[i], r.Violation)
				}
			}
		})
	}
}
