package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/ui"
)

// playBotsMatch plays one match of okey play --bots k in data through
// playBots, the person's seat moved by a bot, on a simulation screen; it
// leaves the end panel once the match is over.
func playBotsMatch(t *testing.T, data, name, strategy, ruleset string, k int) string {
	t.Helper()
	i18n.Set(i18n.English) // other tests run commands that set the language
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	r, err := engine.ParseRuleset(ruleset)
	if err != nil {
		t.Fatal(err)
	}
	person, err := bot.New("greedy", 7)
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := playBots(botFlags{name: name, data: data, strategy: strategy, ruleset: r.String(), bots: k,
		screen: scr, player: person, ended: func(g *ui.Game) { g.Quit() }}, &out, &errb)
	if code != 0 {
		t.Fatalf("okey play --bots %d: exit %d: %s%s", k, code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "honest") {
		t.Fatalf("okey play --bots %d: %s%s", k, out.String(), errb.String())
	}
	return out.String()
}

// TestStatsAddUpAgainstBots (issue 37 item 1): three matches against bots
// in one data folder give one row for the person, marked as the data
// folder's identity, with 3 matches, and one row per bot identity (its
// level and seat slot), each with 3 matches; the bots' identities are kept
// under DATA/bots, and no match file holds a key.
func TestStatsAddUpAgainstBots(t *testing.T) {
	lane.NoRace(t)
	data := t.TempDir()
	// Two bots (a 3-seat table of one hand) keep the test light under the
	// race detector; the slots are told apart all the same.
	for range 3 {
		playBotsMatch(t, data, "Ayse", "expert", "turkish-rummy:rounds=1", 2)
	}
	o, _, _ := runStatsJSON(t, "--data", data)
	if o.Matches != 3 {
		t.Fatalf("%d matches, want 3", o.Matches)
	}
	var names []string
	for _, p := range o.Players {
		names = append(names, p.Name)
		if p.Matches != 3 {
			t.Errorf("%s %s: %d matches, want 3", p.Name, p.Short, p.Matches)
		}
		if p.You != (p.Name == "Ayse") {
			t.Errorf("%s: you=%v", p.Name, p.You)
		}
	}
	slices.Sort(names)
	if want := []string{"Ayse", "hard-1", "hard-2"}; !slices.Equal(names, want) {
		t.Fatalf("players %v, want %v", names, want)
	}
	for _, b := range []string{"hard-1", "hard-2"} {
		if _, err := os.Stat(filepath.Join(data, "bots", b, p2p.IdentityFile)); err != nil {
			t.Errorf("bot %s's identity: %v", b, err)
		}
	}
	// The match files name where the keys are kept, never a seed.
	files, _ := filepath.Glob(filepath.Join(data, "matches", "local-*", "local.json"))
	if len(files) != 3 {
		t.Fatalf("%d match files, want 3", len(files))
	}
	for _, f := range files {
		var st struct {
			Seeds [][]byte `json:"seeds"`
			Refs  []string `json:"identities"`
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatal(err)
		}
		for i, s := range st.Seeds {
			if s != nil {
				t.Errorf("%s: seat %d's seed is in the match file", f, i)
			}
		}
		if want := []string{".", filepath.Join("bots", "hard-1"), filepath.Join("bots", "hard-2")}; !slices.Equal(st.Refs, want) {
			t.Errorf("%s: identities %v, want %v", f, st.Refs, want)
		}
	}
}
