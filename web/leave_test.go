package web

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/ui/tablemodel"
)

// leaveState is the part of the table's state about the header and the
// leave.
type leaveState struct {
	Context  string        `json:"context"`
	LeaveAsk *leaveAskJSON `json:"leaveAsk"`
	Msg      string        `json:"msg"`
	Left     bool          `json:"left"`
}

// leaveUntil reads g's states until ok holds of one (5 seconds at the
// most: then it fails with the last).
func leaveUntil(t *testing.T, g *Game, what string, ok func(leaveState) bool) leaveState {
	t.Helper()
	c, stop := g.subscribe()
	defer stop()
	end := time.After(5 * time.Second)
	var s leaveState
	for {
		select {
		case b := <-c:
			s = leaveState{}
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatal(err)
			}
			if ok(s) {
				return s
			}
		case <-end:
			t.Fatalf("%s: the last state %+v %+v", what, s, s.LeaveAsk)
		}
	}
}

// TestLeaveAsk: a web table's leave asks first while the match is under
// way, in the terminal's quit question's words (its note: the saved
// match's, or a tournament table's own); once the match is over it asks
// nothing. A tournament table's header names its round and table; any
// other table's names nothing.
func TestLeaveAsk(t *testing.T) {
	i18n.Set(i18n.English)
	g := NewGame(0)
	g.Start()
	defer g.Quit()
	leaveUntil(t, g, "a table under way asks in the terminal's words", func(s leaveState) bool {
		return s.Context == "" && s.LeaveAsk != nil && s.LeaveAsk.Title == "leave the table?" && len(s.LeaveAsk.Lines) == 3 &&
			s.LeaveAsk.Lines[0] == "The match is not over. If you leave, the table stops;" &&
			s.LeaveAsk.Lines[2] == "okey play offers to resume it later." && s.LeaveAsk.Yes == "leave" && s.LeaveAsk.No == "stay"
	})
	g.Finish(&tablemodel.MatchEnd{Verdict: "honest", Verified: true})
	leaveUntil(t, g, "the match over, the leave asks nothing", func(s leaveState) bool { return s.LeaveAsk == nil })

	l := NewLobby(t.Context(), &fakeLobby{changes: make(chan struct{}, 1)}, nil)
	tg := l.SitTable(1, "tournament round 2, table 3")
	defer tg.Quit()
	leaveUntil(t, tg, "a tournament's table: its header, its note", func(s leaveState) bool {
		return s.Context == "tournament round 2, table 3" && s.LeaveAsk != nil &&
			s.LeaveAsk.Lines[2] == "register and play on the tournament in the lobby resumes your part while it runs."
	})
	c, stop := tg.subscribe()
	defer stop()
	tg.do(command{Op: "leave"})
	// The state the leave published before the table stopped.
	end := time.After(5 * time.Second)
	for {
		var s leaveState
		select {
		case b := <-c:
			if json.Unmarshal(b, &s) != nil || !s.Left {
				continue
			}
		case <-end:
			t.Fatal("the leave published no state")
		}
		if s.LeaveAsk != nil || s.Msg != "you left the tournament: register and play on it resumes your part while it runs" {
			t.Fatalf("left a tournament's table: %+v", s)
		}
		break
	}
}
