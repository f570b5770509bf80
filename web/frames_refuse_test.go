package web

import (
	"context"
	"testing"

	"github.com/coder/websocket"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
)

// TestFramesRefuseUnknownCommands: a spectator's or a replay's page that
// sends a frame it cannot read, or a command of no page seen from no seat
// (the table's draw among them), gets a refusal on its message line, as the
// table's page does, and nothing else changes; the next step clears it.
func TestFramesRefuseUnknownCommands(t *testing.T) {
	i18n.Set(i18n.English)
	for _, tc := range []struct {
		name string
		page *Frames
	}{
		{"watch", NewWatchPage([]string{"ayse", "ali", "veli", "zeynep"}, "classic")},
		{"replay", NewReplayPage(&ui.Replay{Names: []string{"ayse", "ali"}, Ruleset: "classic", Report: &table.Report{Honest: true}})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.page
			s, err := ListenFrames(f, 0)
			if err != nil {
				t.Fatal(err)
			}
			go s.Serve()
			t.Cleanup(func() { s.Close() })
			c := dialTable(t, s, "/ws")
			first := readUntil(t, c, "the first state", func(stateJSON) bool { return true })
			for _, frame := range []string{`not json`, `{"op":`, `{"op":"fly"}`, `{"op":7}`, `{"op":"draw"}`, `{"op":"discard","slot":3}`} {
				if err := c.Write(context.Background(), websocket.MessageText, []byte(frame)); err != nil {
					t.Fatal(err)
				}
				st := readUntil(t, c, frame, func(st stateJSON) bool { return st.MsgBad && st.Msg != "" })
				if st.Board == nil || first.Board == nil || st.Board.At != first.Board.At || st.Board.Frames != first.Board.Frames {
					t.Errorf("%s moved the page: %+v, was %+v", frame, st.Board, first.Board)
				}
				// The next step clears it.
				if err := c.Write(context.Background(), websocket.MessageText, []byte(`{"op":"first"}`)); err != nil {
					t.Fatal(err)
				}
				readUntil(t, c, "the refusal cleared", func(st stateJSON) bool { return st.Msg == "" && !st.MsgBad })
			}
			if f.left() {
				t.Fatal("a bad command left the page")
			}
		})
	}
}
