package bot

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/okey-game/okey/engine"
)

// TestDiagExpert counts, per seat with the expert in seat 0 and greedy in
// the others, the takes, the wins and the wins right after a take. Only with
// OKEY_DIAG=hands; a tool for tuning by hand, not a check.
func TestDiagExpert(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("OKEY_DIAG"))
	if n == 0 {
		t.Skip("OKEY_DIAG not set")
	}
	preset := os.Getenv("OKEY_DIAG_PRESET")
	if preset == "" {
		preset = "classic"
	}
	var takes, wins, takeWins, turns [4]int
	stale := 0
	// take rate of seat 0's discards by seat 1, by features of the tile
	type bucket struct{ n, took int }
	feat := map[string]*bucket{}
	pending := ""
	count := func(key string, took bool) {
		b := feat[key]
		if b == nil {
			b = &bucket{}
			feat[key] = b
		}
		b.n++
		if took {
			b.took++
		}
	}
	for i := 0; i < n; i++ {
		tb := newTable(t, preset, 4, i%4, uint64(i)+100)
		tb.settle()
		bots := []Strategy{NewExpert(uint64(i)), NewGreedy(), NewGreedy(), NewGreedy()}
		lastTake := -1
		res := tb.play(bots, func(h *engine.Hand, v *engine.View, b Strategy, a engine.Action) {
			if a.Seat == 1 && pending != "" && (a.Kind == engine.ActTake || a.Kind == engine.ActDraw) {
				count(pending, a.Kind == engine.ActTake)
				pending = ""
			}
			if a.Seat == 0 && a.Kind == engine.ActDiscard {
				p, err := read(h, v)
				if err != nil {
					t.Fatal(err)
				}
				k := know(p)
				f := v.Face(h, a.Slot)
				pf := plain(p.okey, f)
				lt, lth := 0, 0
				for _, x := range k.took {
					if xp := plain(p.okey, x); xp == pf || linked(xp, pf) {
						lt++
					}
				}
				for _, s := range h.Pile(1) {
					if x := h.PublicFace(s); x.Valid() {
						if xp := plain(p.okey, x); xp == pf || linked(xp, pf) {
							lth++
						}
					}
				}
				ph := "early"
				if h.Turns() > 24 {
					ph = "late"
				}
				pending = fmt.Sprintf("%s took-links=%d thrown-links=%d passed=%v", ph, min(lt, 2), min(lth, 2), k.passed[f])
			}
			switch a.Kind {
			case engine.ActTake:
				takes[a.Seat]++
				lastTake = a.Seat
			case engine.ActDraw:
				turns[a.Seat]++
				lastTake = -1
			}
		})
		if res.Winner >= 0 {
			wins[res.Winner]++
			if lastTake == res.Winner {
				takeWins[res.Winner]++
			}
		} else {
			stale++
		}
	}
	for s := 0; s < 4; s++ {
		t.Logf("seat %d: wins %d (after a take %d) takes %d draws %d", s, wins[s], takeWins[s], takes[s], turns[s])
	}
	t.Logf("stalemates %d", stale)
	keys := make([]string, 0, len(feat))
	for k := range feat {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		b := feat[k]
		t.Logf("%-45s %5d discards, taken %5.1f%%", k, b.n, 100*float64(b.took)/float64(b.n))
	}
}
