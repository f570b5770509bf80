package bot

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
)

func TestNewAndNames(t *testing.T) {
	if got := Names(); !slices.Equal(got, []string{"random", "greedy", "expert", LearnedName}) {
		t.Fatalf("Names() = %v", got)
	}
	for _, n := range Names() {
		s, err := New(n, 1)
		if err != nil || s.Name() != n {
			t.Fatalf("New(%q) = %v, %v", n, s, err)
		}
	}
	_, err := New("grandmaster", 1)
	if err == nil || !strings.Contains(err.Error(), "random") || !strings.Contains(err.Error(), "greedy") {
		t.Fatalf("unknown name: err = %v, want one listing the names", err)
	}
}

// greedyChecks asserts greedy's invariants on every move it makes: it never
// discards an okey except as a winning final discard, and when it holds a
// win it declares it, unless it waits for an okey finish (an ordinary
// winning discard while the stock is long).
func greedyChecks(t *testing.T) moveCheck {
	return func(h *engine.Hand, v *engine.View, bot Strategy, a engine.Action) {
		t.Helper()
		if bot.Name() != "greedy" {
			return
		}
		_, drawn := h.Turn()
		_, fs := v.Rack(h)
		okey := h.Okey()
		if a.Kind == engine.ActDiscard && a.Faces[0].Face == okey {
			t.Fatalf("greedy discarded an okey (%v) without winning; rack %v", okey, engine.FormatFaces(fs))
		}
		if !drawn || a.Kind == engine.ActShow {
			return
		}
		winLen := h.Rules().HandSize
		win := len(winningFaces(okey, fs, winLen)) > 0
		if h.Rules().PairsNoDiscard && len(fs) == engine.WinSize {
			arr, ok := engine.WinningArrangement(okey, fs)
			win = win || ok && arr.Kind == engine.Pairs
		}
		if !win || a.Kind == engine.ActWin {
			return
		}
		if a.Kind != engine.ActDiscard || h.StockLen() <= OkeyWaitStock ||
			!isWin(okey, without(fs, a.Faces[0].Face), winLen) {
			t.Fatalf("greedy holds a win (%v, okey %v) but played %v %v", engine.FormatFaces(fs), okey, a.Kind, a.Faces)
		}
	}
}

// TestBotsPlayEveryPreset plays hands of every preset with 2 to 4 players:
// a mixed table, then an all-greedy and an all-random one. Every move must
// be accepted by the engine and every hand must end.
func TestBotsPlayEveryPreset(t *testing.T) {
	lane.NoRace(t) // whole matches of pure bots in every preset, no goroutine
	presets := []string{"classic", "classic:partnerships", "turkish-rummy", "german"}
	for _, preset := range presets {
		for n := 2; n <= 4; n++ {
			r, _ := engine.ParseRuleset(preset)
			if r.CheckPlayers(n) != nil {
				continue
			}
			seed := uint64(100*n + len(preset))
			tb := newTable(t, preset, n, n-1, seed)
			lineups := [][]string{{"greedy", "random"}, {"greedy"}, {"random"}}
			for hand, names := range lineups {
				if hand > 0 {
					tb.next()
				}
				tb.settle()
				bots := make([]Strategy, n)
				for i := range bots {
					bots[i] = mustBot(t, names[(i+hand)%len(names)], seed+uint64(i))
				}
				res := tb.play(bots, greedyChecks(t))
				t.Logf("%s n=%d %v: winner %d (%v) after %d turns", preset, n, names, res.Winner, res.Kind, tb.h().Turns())
				if tb.m.Over() {
					break
				}
			}
		}
	}
}

// TestGreedyBeatsRandom: over 40 seeded two-player hands, greedy sitting
// first and second in turn, greedy wins strictly more hands than random.
func TestGreedyBeatsRandom(t *testing.T) {
	lane.NoRace(t) // a statistical test over whole matches of pure bots
	hands := 40
	wins := map[string]int{}
	for i := 0; i < hands; i++ {
		tb := newTable(t, "classic", 2, i%2, uint64(5000+i))
		tb.settle()
		bots := []Strategy{mustBot(t, "greedy", 0), mustBot(t, "random", uint64(i))}
		if i%2 == 1 {
			bots[0], bots[1] = bots[1], bots[0]
		}
		res := tb.play(bots, greedyChecks(t))
		if res.Winner >= 0 {
			wins[bots[res.Winner].Name()]++
		} else {
			wins["none"]++
		}
	}
	t.Logf("%d hands: greedy %d, random %d, stalemates %d", hands, wins["greedy"], wins["random"], wins["none"])
	if wins["greedy"] <= wins["random"] {
		t.Fatalf("greedy won %d hands, random %d", wins["greedy"], wins["random"])
	}
}

// TestBotsIgnoreHiddenFaces: a bot whose view knows every face of the deck
// plays exactly as one that knows only its own tiles. Bots read only their
// own rack and public faces.
func TestBotsIgnoreHiddenFaces(t *testing.T) {
	lane.NoRace(t) // whole matches of pure bots, no goroutine
	for _, name := range Names() {
		tb := newTable(t, "classic", 3, 0, 77)
		tb.settle()
		n := 3
		bots := make([]Strategy, n)
		twins := make([]Strategy, n)
		for i := range bots {
			bots[i] = mustBot(t, name, uint64(i))
			twins[i] = mustBot(t, name, uint64(i))
		}
		check := func(h *engine.Hand, v *engine.View, bot Strategy, a engine.Action) {
			all := engine.NewView(v.Seat)
			for s := engine.Slot(0); s < engine.DeckSize; s++ {
				all.Learn(s, tb.d.face(s))
			}
			b, err := twins[v.Seat].Move(h, all)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("%s: own view %+v, all-knowing view %+v", name, a, b)
			}
		}
		tb.play(bots, check)
	}
}

func TestMoveErrors(t *testing.T) {
	tb := newTable(t, "classic", 2, 0, 3)
	g := NewGreedy()
	if _, err := g.Move(tb.h(), tb.views[0]); !errors.Is(err, ErrNotToMove) {
		t.Fatalf("before the deal: err = %v", err)
	}
	tb.settle()
	seat, _ := tb.h().Turn()
	other := 1 - seat
	for _, s := range []Strategy{NewGreedy(), NewRandom(1)} {
		if _, err := s.Move(tb.h(), tb.views[other]); !errors.Is(err, ErrNotToMove) {
			t.Fatalf("%s out of turn: err = %v", s.Name(), err)
		}
		// A view that was never told its faces: an error, not a panic.
		if _, err := s.Move(tb.h(), engine.NewView(seat)); !errors.Is(err, ErrUnknownFace) {
			t.Fatalf("%s with unknown faces: err = %v", s.Name(), err)
		}
	}
}
