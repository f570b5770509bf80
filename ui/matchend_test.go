package ui

import (
	"slices"
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// TestEndOf: the end panel says what the report says (verified, the
// verdict, unfinished, its ranking); with the seat's result, a match
// that did not end says why, and a report with no ranking takes the one
// the seat's machine reached.
func TestEndOf(t *testing.T) {
	ranked := []engine.Standing{{Seat: 1, Place: 1}, {Seat: 0, Place: 2}}
	rep := &table.Report{Honest: true, Ranking: ranked}
	end := EndOf("t.okey", rep, nil)
	if !end.Verified || end.Unfinished || end.Transcript != "t.okey" || end.Verdict != Verdict(rep) || !slices.Equal(end.Ranking, ranked) || end.Err != nil {
		t.Fatalf("an honest report: %+v", end)
	}
	if end := EndOf("t.okey", &table.Report{}, nil); end.Verified || !end.Unfinished {
		t.Fatalf("an unfinished report: %+v", end)
	}
	stall := &table.Stall{Seat: 2}
	if end := EndOf("t.okey", &table.Report{}, &table.Result{Stalled: stall}); end.Err != stall {
		t.Fatalf("a stalled match: Err %v, want the stall", end.Err)
	}
	tr := greedyMatch(t, "classic:points=1", 3)
	m := applyChain(t, tr, len(tr.Chain), nil)
	want := m.Match().Ranking()
	if len(want) == 0 {
		t.Fatal("the match has no ranking")
	}
	if end := EndOf("t.okey", &table.Report{Honest: true}, &table.Result{Machine: m}); !slices.Equal(end.Ranking, want) || end.Err != nil {
		t.Fatalf("no ranking in the report: %v, want the machine's %v (err %v)", end.Ranking, want, end.Err)
	}
}
