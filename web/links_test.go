package web

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/okey-game/okey/table"
)

// nextState reads g's states until ok holds (10 s).
func nextState(t *testing.T, states <-chan []byte, what string, ok func(stateJSON) bool) stateJSON {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case b := <-states:
			if st, yes := decoded(t, b, ok); yes {
				return st
			}
		case <-deadline:
			t.Fatalf("%s: no such state in 10 s", what)
		}
	}
}

// decoded is the state b, and whether ok holds of it.
func decoded[T any](t *testing.T, b []byte, ok func(T) bool) (T, bool) {
	t.Helper()
	var st T
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	return st, ok(st)
}

// TestGameLinks: a LAN match's page carries how this peer reaches each
// other seat (the links' poll, SetLinks), and presence (SetAway) turns a
// seat whose peer is gone to reconnecting at once, as the terminal's links
// line does.
func TestGameLinks(t *testing.T) {
	g := NewGame(0)
	g.Start()
	defer g.Quit()
	states, stop := g.subscribe()
	defer stop()
	nextState(t, states, "no links before a LAN match", func(st stateJSON) bool { return len(st.Links) == 0 && st.Labels["links"] == "links" })
	g.SetLinks([]table.SeatLink{{Name: "mehmet", Kind: "direct", RTT: 3 * time.Millisecond}, {Name: "zeynep", Kind: "relayed"},
		{Name: "ali", Kind: "via-member", RTT: 40 * time.Millisecond}, {Name: "can", Kind: "none"}})
	g.Say("x") // a new state
	st := nextState(t, states, "the links", func(st stateJSON) bool { return len(st.Links) == 4 })
	want := []linkJSON{{"mehmet", "direct", "direct 3 ms"}, {"zeynep", "relayed", "relayed"}, {"ali", "via-member", "through a member 40 ms"},
		{"can", "none", "reconnecting"}}
	for i, w := range want {
		if st.Links[i] != w {
			t.Fatalf("link %d: %+v, want %+v", i, st.Links[i], w)
		}
	}
	g.SetAway([]string{"mehmet", "deniz"})
	g.Say("y")
	st = nextState(t, states, "presence", func(st stateJSON) bool { return len(st.Links) == 5 })
	if st.Links[0] != (linkJSON{"mehmet", "none", "reconnecting"}) || st.Links[4] != (linkJSON{"deniz", "none", "reconnecting"}) {
		t.Fatalf("away seats: %+v", st.Links)
	}
}
