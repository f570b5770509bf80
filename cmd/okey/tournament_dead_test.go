package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/tournament/participant"
	"github.com/okey-game/okey/verdict"
)

// TestTournamentDeadTableScreen (issue 37 item 2): when the other seats
// end a tournament table unfinished while the lobby's player was to move
// (the participant stops the seat and hands over its transcript), the
// table's screen says so (you did not move, the standings, the next
// draw), takes no more moves, and q goes to the lobby, which says the
// player stays in for the next draw.
func TestTournamentDeadTableScreen(t *testing.T) {
	i18n.Set(i18n.English)
	tr, _, err := verdict.Read(transcripts(t)["cut"])
	if err != nil {
		t.Fatal(err)
	}
	rep := table.Verify(tr)
	if rep.Next == nil {
		t.Fatal("the cut transcript waits for no one")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	l := startTourLobbyTest(ctx, t, participant.NewMemBus(), t.TempDir(), 3)
	defer l.stop()
	screen := func(what string, cond func(string) bool) string {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			s := l.g.ScreenText(l.scr)
			if cond(s) {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: not on the screen:\n%s", what, s)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	screen("the lobby", func(s string) bool { return strings.Contains(s, "okey lobby") })
	// The player sits at the seat the table waited for.
	st := l.tours.sit("folder/r1-t0.transcript", tournament.Ref{Round: 1, Table: 0}, rep.Next.Seat)
	screen("the table", func(s string) bool { return !strings.Contains(s, "okey lobby") })
	st.Done(tr, nil)
	s := screen("the dead table's end", func(s string) bool {
		return strings.Contains(s, "This match ended unfinished: you did not move for") &&
			strings.Contains(s, "q: back to the lobby")
	})
	if testing.Verbose() {
		t.Logf("\n%s", s)
	}
	for _, want := range []string{"next round's draw", "unfinished, honest so far"} {
		if !strings.Contains(strings.Join(strings.Fields(s), " "), want) {
			t.Errorf("no %q on the end panel:\n%s", want, s)
		}
	}
	l.scr.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	screen("the lobby again", func(s string) bool {
		return strings.Contains(s, "okey lobby") && strings.Contains(s, "round 1, table 1 ended unfinished: you stay in for the next draw")
	})
}
