package web

import (
	"context"
	"testing"
	"time"

	"github.com/okey-game/okey/internal/browsertest"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/ui"
)

// leaveDOM is what the table's page shows of its header and the leave's
// question.
type leaveDOM struct {
	Path    string   `json:"path"`
	Context string   `json:"context"`
	Rack    int      `json:"rack"`
	Asking  bool     `json:"asking"`
	Title   string   `json:"title"`
	Lines   []string `json:"lines"`
	Yes     string   `json:"yes"`
	No      string   `json:"no"`
}

const readLeaveDOM browsertest.DOM[leaveDOM] = `(() => {
	const q = (s) => document.querySelector(s);
	const t = (s) => (q(s) || {textContent: ''}).textContent;
	return {
		path: location.pathname, context: t('#context'), rack: document.querySelectorAll('#rack .tile').length,
		asking: !!q('#leave-ask') && !q('#leave-ask').hidden, title: t('#leave-title'),
		lines: [...document.querySelectorAll('#leave-lines p')].map((p) => p.textContent), yes: t('#leave-yes'), no: t('#leave-no'),
	};
})()`

// TestBrowserTournamentTable: a tournament round's table on the lobby's
// page (Lobby.SitTable, a match against 3 bots under way) names its round
// and table in its header; its leave asks first, in the terminal's quit
// question's words with the tournament's own note: its no (the button,
// then the key n) stays at the table, the key q asks again and y leaves,
// and the page goes back to the lobby.
func TestBrowserTournamentTable(t *testing.T) {
	lane.NoRace(t)
	i18n.Set(i18n.English)
	ctx := browser(t)
	l, s, _ := serveLobby(t, &fakeLobby{changes: make(chan struct{}, 1)}, nil)
	g := l.SitTable(0, "tournament round 2, table 3")
	bots, names := botsFor("classic", 3)
	data, played := t.TempDir(), make(chan struct{})
	go func() {
		defer close(played)
		_, _ = ui.PlayLocal(context.Background(), g, ui.LocalOptions{Ruleset: "classic", Name: "ayse", Bots: bots, BotName: names, Data: data})
	}()
	// The match has stopped writing in data before the test ends.
	defer func() {
		g.Quit()
		select {
		case <-played:
		case <-time.After(10 * time.Second):
			t.Error("the match did not stop after the leave")
		}
	}()
	// The lobby's page hands over to the table's by itself.
	c := browsertest.Page(t, ctx, s.URL(), "body")
	until := func(what string, ok func(leaveDOM) bool) leaveDOM {
		t.Helper()
		return readLeaveDOM.Until(t, c, 10*time.Second, what, ok)
	}
	stays := func(what string) {
		t.Helper()
		select {
		case <-g.Done():
			t.Fatalf("%s: the table was left", what)
		default:
		}
	}
	readLeaveDOM.Until(t, c, 30*time.Second, "the table's page, its header naming the round and the table", func(d leaveDOM) bool {
		return d.Path == "/table" && d.Context == "tournament round 2, table 3" && d.Rack > 0 && !d.Asking
	})
	browsertest.Click(t, c, "#leave")
	d := until("the leave's question", func(d leaveDOM) bool { return d.Asking })
	want := []string{"The match is not over. If you leave, the table stops;", "what was played so far stays saved in the data dir.",
		"register and play on the tournament in the lobby resumes your part while it runs."}
	if d.Title != "leave the table?" || len(d.Lines) != 3 || d.Lines[0] != want[0] || d.Lines[1] != want[1] || d.Lines[2] != want[2] ||
		d.Yes != "leave" || d.No != "stay" {
		t.Fatalf("the question: %+v", d)
	}
	browsertest.Shoot(t, c, "tour-leave-question")
	browsertest.Click(t, c, "#leave-no")
	until("the question closed by its no", func(d leaveDOM) bool { return !d.Asking })
	stays("its no")
	browsertest.Key(t, c, "q")
	until("q asks", func(d leaveDOM) bool { return d.Asking })
	browsertest.Key(t, c, "n")
	until("n stays", func(d leaveDOM) bool { return !d.Asking && d.Rack > 0 })
	stays("n")
	browsertest.Key(t, c, "q")
	until("q asks again", func(d leaveDOM) bool { return d.Asking })
	browsertest.Key(t, c, "y")
	select {
	case <-g.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("y did not leave the table")
	}
	until("the lobby again", func(d leaveDOM) bool { return d.Path == "/" })
}
