package bot

import (
	"slices"
	"testing"
	"time"

	"github.com/okey-game/okey/engine"
)

type snapshot struct {
	h engine.Hand
	v engine.View
}

// greedyPositions records the positions greedy met in whole hands of the
// preset (four greedy players). engine.Hand.Apply replaces the hand's state
// with a fresh copy, so a shallow copy of a Hand is a stable snapshot.
func greedyPositions(tb testing.TB, preset string, hands int, drawnOnly bool) []snapshot {
	var out []snapshot
	for i := 0; i < hands; i++ {
		tab := newTable(tb, preset, 4, i%4, uint64(900+i))
		tab.settle()
		bots := []Strategy{NewGreedy(), NewGreedy(), NewGreedy(), NewGreedy()}
		tab.play(bots, func(h *engine.Hand, v *engine.View, _ Strategy, _ engine.Action) {
			if _, drawn := h.Turn(); drawn || !drawnOnly {
				out = append(out, snapshot{*h, *v})
			}
		})
	}
	return out
}

// BenchmarkGreedyMove: greedy's move in positions from real four-player
// classic hands, before and after the draw.
func BenchmarkGreedyMove(b *testing.B) {
	pos := greedyPositions(b, "classic", 8, false)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := &pos[i%len(pos)]
		if _, err := NewGreedy().Move(&p.h, &p.v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGreedyDiscard: only the positions after a draw (15 tiles).
func BenchmarkGreedyDiscard(b *testing.B) {
	pos := greedyPositions(b, "classic", 8, true)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := &pos[i%len(pos)]
		if _, err := NewGreedy().Move(&p.h, &p.v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGreedyMoveGerman: 13-tile hands, estimate only.
func BenchmarkGreedyMoveGerman(b *testing.B) {
	pos := greedyPositions(b, "german", 8, false)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := &pos[i%len(pos)]
		if _, err := NewGreedy().Move(&p.h, &p.v); err != nil {
			b.Fatal(err)
		}
	}
}

// benchExpert times the expert's move in the positions greedy met in whole
// hands of the preset and reports the 95th percentile (ms) beside the mean:
// the bound is 50 ms at p95 on one core (run with -cpu 1).
func benchExpert(b *testing.B, preset string) {
	pos := greedyPositions(b, preset, 8, false)
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := &pos[i%len(pos)]
		t0 := time.Now()
		if _, err := NewExpert(1).Move(&p.h, &p.v); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)*95/100])/1e6, "p95-ms")
	b.ReportMetric(float64(times[len(times)-1])/1e6, "max-ms")
}

// BenchmarkExpertMove: classic, before and after the draw.
func BenchmarkExpertMove(b *testing.B) { benchExpert(b, "classic") }

// BenchmarkExpertMoveGerman: 13-tile hands.
func BenchmarkExpertMoveGerman(b *testing.B) { benchExpert(b, "german") }

// BenchmarkExpertMoveTurkish: turkish-rummy.
func BenchmarkExpertMoveTurkish(b *testing.B) { benchExpert(b, "turkish-rummy") }
