package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/verdict"
)

func TestSimAndVerifyHonest(t *testing.T) {
	lane.NoRace(t)
	dir := t.TempDir()
	code, out, errs := runOkey(t, "", "sim", "--players", "3", "--games", "2", "--preset", "turkish-rummy:rounds=1",
		"--bots", "greedy,random", "--seed", "5", "--out", dir)
	if code != 0 {
		t.Fatalf("sim exit %d: %s", code, errs)
	}
	for _, want := range []string{"matches: 2, hands: 2", "time per hand", "cryptography", "every transcript verified: yes"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.okey"))
	if len(files) != 2 {
		t.Fatalf("want 2 transcripts, got %v", files)
	}
	code, out, errs = runOkey(t, "", append([]string{"verify"}, files...)...)
	if code != 0 || strings.Count(out, "honest") != 2 {
		t.Fatalf("verify exit %d: %s %s", code, out, errs)
	}
	code, out, _ = runOkey(t, "", "verify", "--json", files[0])
	var rep struct {
		Honest  bool   `json:"honest"`
		Ruleset string `json:"ruleset"`
		Hands   int    `json:"hands"`
		Cheater *int   `json:"cheater"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || !rep.Honest || rep.Hands != 1 || rep.Cheater != nil ||
		rep.Ruleset != "turkish-rummy:rounds=1" {
		t.Fatalf("verify --json exit %d: %s", code, out)
	}
}

func TestSimCheatIsNamed(t *testing.T) {
	lane.NoRace(t)
	dir := t.TempDir()
	code, out, errs := runOkey(t, "", "sim", "--players", "3", "--games", "1", "--preset", "turkish-rummy:rounds=1",
		"--cheat", "phantom-discard", "--cheater", "2", "--seed", "6", "--out", dir)
	if code != 0 {
		t.Fatalf("sim exit %d: %s %s", code, out, errs)
	}
	if strings.Count(out, "names seat 2") != 3 { // two live peers and verify
		t.Fatalf("the cheater is not named by everyone:\n%s", out)
	}
	file := filepath.Join(dir, "match-000.okey")
	code, out, _ = runOkey(t, "", "verify", file)
	if code != 1 || !strings.Contains(out, "seat 2") {
		t.Fatalf("verify exit %d: %s", code, out)
	}
	code, out, _ = runOkey(t, "", "verify", "--json", file)
	var rep struct {
		Honest  bool   `json:"honest"`
		Cheater *int   `json:"cheater"`
		Rule    string `json:"rule"`
	}
	if code != 1 || json.Unmarshal([]byte(out), &rep) != nil || rep.Honest || rep.Cheater == nil || *rep.Cheater != 2 ||
		rep.Rule != "phantom-tile" {
		t.Fatalf("verify --json exit %d: %s", code, out)
	}
}

func TestVerifyUnreadable(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.okey")
	if err := os.WriteFile(junk, []byte("okey-transcript/v1\nnot really\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"verify", junk}, {"verify", filepath.Join(dir, "missing")}, {"verify"}} {
		if code, out, errs := runOkey(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2: %s %s", args, code, out, errs)
		}
	}
}

func TestSimUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sim", "--players", "5"}, "players"},
		{[]string{"sim", "--preset", "poker"}, "unknown preset"},
		{[]string{"sim", "--bots", "nope"}, "unknown strategy"},
		{[]string{"sim", "--players", "2", "--bots", "greedy,random,greedy"}, "3 strategies for 2 seats"},
		{[]string{"sim", "--faults", "drop=2"}, "faults"},
		{[]string{"sim", "--cheat", "nope"}, "cheat"},
		{[]string{"sim", "--cheat", "withhold", "--cheater", "7"}, "--cheater"},
		{[]string{"sim", "extra"}, "no arguments"},
	} {
		code, _, errs := runOkey(t, "", tc.args...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

// TestSimBlameCheats: the cheats that used to get an honest seat named
// (junk dealt privately, a split view) name the cheater, live by every
// honest peer and by verify, with greedy bots at every seat.
func TestSimBlameCheats(t *testing.T) {
	lane.NoRace(t)
	for _, c := range []struct{ cheat, cheater string }{{"junk-private", "3"}, {"split-view", "0"}} {
		t.Run(c.cheat, func(t *testing.T) {
			code, out, errs := runOkey(t, "", "sim", "--players", "4", "--games", "1", "--preset", "turkish-rummy:rounds=1",
				"--bots", "greedy", "--cheat", c.cheat, "--cheater", c.cheater, "--seed", "8")
			if code != 0 {
				t.Fatalf("sim exit %d: %s %s", code, out, errs)
			}
			if n := strings.Count(out, "names seat "+c.cheater); n != 4 { // three live peers and verify
				t.Fatalf("the cheater is named %d times, want 4:\n%s", n, out)
			}
		})
	}
}

// TestVerifyUnfinished: a cut transcript is unfinished (exit 3), honest so
// far, with the seat that was to speak; never cheating.
func TestVerifyUnfinished(t *testing.T) {
	lane.NoRace(t)
	dir := t.TempDir()
	if code, out, errs := runOkey(t, "", "sim", "--players", "2", "--games", "1", "--preset", "turkish-rummy:rounds=1",
		"--seed", "9", "--out", dir); code != 0 {
		t.Fatalf("sim exit %d: %s %s", code, out, errs)
	}
	file := filepath.Join(dir, "match-000.okey")
	tr, _, err := verdict.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	tr.Chain = tr.Chain[:len(tr.Chain)/2]
	cut := filepath.Join(dir, "cut.okey")
	if err := writeTranscriptFile(cut, tr); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runOkey(t, "", "verify", cut)
	if code != 3 || !strings.Contains(out, "unfinished") || strings.Contains(out, "CHEATING") {
		t.Fatalf("verify exit %d: %s", code, out)
	}
	code, out, _ = runOkey(t, "", "verify", "--json", cut)
	var rep struct {
		Status  int    `json:"status"`
		Verdict string `json:"verdict"`
		Cheater *int   `json:"cheater"`
		Next    *int   `json:"next"`
	}
	if code != 3 || json.Unmarshal([]byte(out), &rep) != nil || rep.Status != 3 || rep.Verdict != "unfinished" ||
		rep.Cheater != nil || rep.Next == nil {
		t.Fatalf("verify --json exit %d: %s", code, out)
	}
	// With an honest file beside it, the unfinished one gives the status.
	if code, out, _ := runOkey(t, "", "verify", file, cut); code != 3 {
		t.Fatalf("two files: exit %d: %s", code, out)
	}
}

// TestSimReplayChangesNothing: an honest seat's messages from an earlier
// match of the same table, delivered by a cheater, are ignored: the match
// finishes and verifies honest, and no one is named.
func TestSimReplayChangesNothing(t *testing.T) {
	lane.NoRace(t)
	code, out, errs := runOkey(t, "", "sim", "--players", "3", "--games", "1", "--preset", "turkish-rummy:rounds=1",
		"--bots", "greedy", "--cheat", "replay", "--cheater", "1", "--seed", "10")
	if code != 0 || !strings.Contains(out, "verified honest, no one named") {
		t.Fatalf("sim exit %d:\n%s%s", code, out, errs)
	}
}
