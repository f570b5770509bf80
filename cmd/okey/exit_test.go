package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/netplay"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
	"github.com/okey-game/okey/verdict"
)

// TestHelpExitsZero: every command's help, however asked, goes to stdout
// and exits 0 (issue 15, point 8).
func TestHelpExitsZero(t *testing.T) {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for _, args := range [][]string{{n, "-h"}, {n, "--help"}, {n, "-help"}, {"help", n}} {
			code, out, errs := runOkey(t, "", args...)
			if code != 0 || !strings.Contains(out, "usage: okey "+n) {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want 0 and the usage on stdout", args, code, out, errs)
			}
		}
	}
	for _, args := range [][]string{{}, {"nope"}, {"help", "nope"}, {"help", "verify", "x"}, {"version", "x"}} {
		if code, _, _ := runOkey(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}} {
		if code, out, _ := runOkey(t, "", args...); code != 0 || !strings.Contains(out, "Exit status") {
			t.Errorf("%v: exit %d, want 0 and the usage with the exit statuses: %q", args, code, out)
		}
	}
	if code, out, _ := runOkey(t, "", "version"); code != 0 || !strings.HasPrefix(out, "okey ") || !strings.Contains(out, "go1") {
		t.Errorf("version: exit %d: %q", code, out)
	}
}

// transcripts writes the files the exit convention is tested on: an
// honest match, a cheater named, a flipped byte, a cut file, junk, a bad
// record length, a directory. They are made once for the package's tests
// (a match and a sim each, slow under the race detector) and removed by
// TestMain; the tests only read them.
func transcripts(t *testing.T) map[string]string {
	t.Helper()
	transcriptsOnce.Do(func() {
		dir, err := os.MkdirTemp("", "okey-transcripts-")
		if err != nil {
			t.Fatal(err)
		}
		transcriptsDir = dir
		transcriptFiles = makeTranscripts(t, dir)
	})
	if transcriptFiles == nil {
		t.Fatal("the test transcripts could not be made (see the first test that asked)")
	}
	return transcriptFiles
}

var (
	transcriptsOnce sync.Once
	transcriptsDir  string
	transcriptFiles map[string]string
)

func makeTranscripts(t *testing.T, dir string) map[string]string {
	t.Helper()
	var movers []table.Mover
	for i := 0; i < 2; i++ {
		b, _ := bot.New("greedy", uint64(i))
		movers = append(movers, b)
	}
	res, err := table.RunLocal(context.Background(), table.LocalOptions{Ruleset: "turkish-rummy:rounds=1", Movers: movers, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	if err := table.WriteTranscript(&sb, res.Transcript(-1)); err != nil {
		t.Fatal(err)
	}
	honest := []byte(sb.String())
	files := map[string]string{}
	write := func(name string, b []byte) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		files[name] = p
	}
	write("honest", honest)
	flip := append([]byte(nil), honest...)
	flip[len(flip)-1] ^= 0x01 // the last record's signature: the framing holds
	write("flip", flip)
	write("cut", honest[:len(honest)*9/10])
	write("junk", []byte("hello, this is not a transcript at all"))
	bad := append([]byte(nil), honest...)
	copy(bad[len(verdict.Magic):], []byte{0xff, 0xff, 0xff, 0xff})
	write("badlen", bad)
	files["dir"] = dir
	files["missing"] = filepath.Join(dir, "missing")
	code, out, errs := runOkey(t, "", "sim", "--players", "2", "--preset", "turkish-rummy:rounds=1",
		"--cheat", "phantom-discard", "--cheater", "1", "--seed", "6", "--out", filepath.Join(dir, "cheat"))
	if code != 0 {
		t.Fatalf("sim --cheat: exit %d: %s %s", code, out, errs)
	}
	files["cheat"] = filepath.Join(dir, "cheat", "match-000.okey")
	return files
}

// TestExitConvention: verify and replay over good, named, damaged, cut and
// unreadable files: the same statuses, messages for a player (no package
// prefixes, no "record type 0", no blame for a flipped byte).
func TestExitConvention(t *testing.T) {
	lane.NoRace(t)
	files := transcripts(t)
	replayed := 0
	replayAt = func(*ui.Replay, ui.Options) error { replayed++; return nil }
	defer func() { replayAt = ui.RunReplay }()
	for _, tc := range []struct {
		file   string
		code   int
		want   string
		shown  bool // replay shows it
		banned []string
	}{
		{"honest", 0, "honest", true, nil},
		{"cheat", 1, "CHEATING", true, nil},
		{"flip", 2, "does not hold", true, []string{"seat 0", "seat 1", "CHEAT"}},
		{"cut", 3, "unfinished, honest so far", true, []string{"CHEAT"}},
		{"junk", 2, "not an okey transcript", false, []string{"bad header"}},
		{"badlen", 2, "not an okey transcript", false, []string{"record of", "bytes"}},
		{"dir", 2, "is a directory", false, []string{"bad header"}},
		{"missing", 2, "no such file", false, nil},
	} {
		for _, cmd := range []string{"verify", "replay"} {
			before := replayed
			code, out, errs := runOkey(t, "", cmd, files[tc.file])
			all := out + errs
			if code != tc.code || !strings.Contains(all, tc.want) {
				t.Errorf("%s %s: exit %d, output %q; want %d and %q", cmd, tc.file, code, all, tc.code, tc.want)
			}
			for _, b := range append(tc.banned, "table:", "engine:", "record type") {
				if strings.Contains(all, b) {
					t.Errorf("%s %s: the output %q says %q", cmd, tc.file, all, b)
				}
			}
			if n := strings.Count(all, tc.want); n > 2 {
				t.Errorf("%s %s: %q said %d times: %q", cmd, tc.file, tc.want, n, all)
			}
			if cmd == "replay" && (replayed > before) != tc.shown {
				t.Errorf("replay %s: shown %v, want %v", tc.file, replayed > before, tc.shown)
			}
		}
	}
	// Several files: one status, the one that matters most (1, then 2, then
	// 3, then 0), in any order of the files.
	for _, tc := range []struct {
		files []string
		code  int
	}{
		{[]string{"honest", "cut"}, 3},
		{[]string{"cut", "flip"}, 2},
		{[]string{"flip", "cut"}, 2},
		{[]string{"cut", "cheat", "flip"}, 1},
		{[]string{"junk", "cheat", "cut"}, 1},
		{[]string{"cheat", "missing"}, 1},
		{[]string{"honest", "honest"}, 0},
	} {
		var paths []string
		for _, f := range tc.files {
			paths = append(paths, files[f])
		}
		if code, out, errs := runOkey(t, "", append([]string{"verify"}, paths...)...); code != tc.code {
			t.Errorf("verify %v: exit %d, want %d: %s%s", tc.files, code, tc.code, out, errs)
		}
	}
	// In Turkish the evidence and the preset read in Turkish too (--json
	// keeps the library's words).
	if _, out, _ := runOkey(t, "", "--lang", "tr", "verify", files["cheat"]); !strings.Contains(out, "istakasında yok") || strings.Contains(out, "rack") {
		t.Errorf("--lang tr verify of a cheat: %s", out)
	}
	if _, out, _ := runOkey(t, "", "--lang", "tr", "verify", files["honest"]); !strings.Contains(out, "dürüst: Türk rummy") {
		t.Errorf("--lang tr verify of an honest match: %s", out)
	}
	if _, out, _ := runOkey(t, "", "--lang", "tr", "verify", "--json", files["cheat"]); !strings.Contains(out, "not in the player's rack") {
		t.Errorf("--lang tr verify --json: %s", out)
	}
	// No terminal: 2, not the verdicts' 1.
	replayAt = func(*ui.Replay, ui.Options) error { return errors.New("open /dev/tty: no such device") }
	if code, _, errs := runOkey(t, "", "replay", files["honest"]); code != 2 || !strings.Contains(errs, "no terminal") {
		t.Errorf("replay without a terminal: exit %d, %q", code, errs)
	}
}

// TestBadNumbersAreUsageErrors: counts and durations out of range, unknown
// names, are refused before anything runs, in words without package
// prefixes.
func TestBadNumbersAreUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sim", "--games", "-2"}, "--games -2"},
		{[]string{"sim", "--games", "0"}, "--games 0"},
		{[]string{"sim", "--stall", "-1s"}, "--stall"},
		{[]string{"sim", "--players", "-1"}, "players"},
		{[]string{"sim", "--preset", "poker"}, "unknown preset"},
		{[]string{"play", "--bots", "1", "--preset", "poker"}, "unknown preset"},
		{[]string{"play", "--bots", "1", "--strategy", "nope"}, "unknown strategy"},
		{[]string{"bot", "--strategy", "nope"}, "unknown strategy"},
	} {
		code, out, errs := runOkey(t, "", tc.args...)
		if code != 2 || !strings.Contains(errs, tc.want) || strings.Contains(out, "verified: yes") ||
			strings.Contains(errs, "engine:") || strings.Contains(errs, "bot: unknown") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", tc.args, code, out, errs, tc.want)
		}
	}
}

// FuzzParseTranscript: the framing check never panics, and what it accepts
// table.ReadTranscript accepts too.
func FuzzParseTranscript(f *testing.F) {
	f.Add([]byte(verdict.Magic))
	f.Add([]byte(verdict.Magic + "\x00\x00\x00\x01x\x01\x00\x00\x00\x02ab"))
	f.Add([]byte("junk"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, _, err := verdict.Parse(data)
		if err == nil && tr == nil {
			t.Fatal("no transcript and no error")
		}
	})
}

// TestHelpRules: the rules of every preset, whole or one at a time, each
// saying how it scores.
func TestHelpRules(t *testing.T) {
	code, all, _ := runOkey(t, "", "help", "rules")
	if code != 0 {
		t.Fatalf("help rules: exit %d", code)
	}
	for _, tc := range []struct{ preset, scores, other string }{
		{"classic", "higher is better", "(`german`)"},
		{"turkish-rummy", "lower is better", "(`classic`)"},
		{"german", "lower is better", "(`turkish-rummy`)"},
	} {
		if !strings.Contains(all, "(`"+tc.preset+"`)") {
			t.Errorf("help rules lacks %s", tc.preset)
		}
		code, out, errs := runOkey(t, "", "help", "rules", tc.preset)
		if code != 0 || !strings.Contains(out, "(`"+tc.preset+"`)") || !strings.Contains(out, tc.scores) ||
			strings.Contains(out, tc.other) || !strings.Contains(out, "## The tiles") {
			t.Errorf("help rules %s: exit %d, %s\n%s", tc.preset, code, errs, out)
		}
	}
	if code, _, errs := runOkey(t, "", "help", "rules", "poker"); code != 2 || !strings.Contains(errs, "unknown preset") ||
		!strings.Contains(errs, "german, 101") {
		t.Errorf("help rules poker: exit %d, %q", code, errs)
	}
	// 101 gets the common part without the sections of the games of 14
	// tiles ("Nothing is laid on the table during play"), in both languages;
	// those keep them.
	for _, tc := range []struct{ lang, laid string }{{"en", "Nothing is laid on the table"}, {"tr", "masaya bir şey açılmaz"}} {
		code, out, errs := runOkey(t, "", "--lang", tc.lang, "help", "rules", "101")
		if code != 0 || !strings.Contains(out, "(`101`)") || strings.Contains(out, tc.laid) || strings.Contains(out, "(`classic`") ||
			!strings.Contains(out, "`FJ`") {
			t.Errorf("help rules 101 (%s): exit %d, %s\n%s", tc.lang, code, errs, out)
		}
		if _, out, _ := runOkey(t, "", "--lang", tc.lang, "help", "rules", "turkish-rummy"); !strings.Contains(out, tc.laid) {
			t.Errorf("help rules turkish-rummy (%s) lacks %q:\n%s", tc.lang, tc.laid, out)
		}
	}
	if _, out, errs := runOkey(t, "", "play", "-h"); !strings.Contains(out+errs, "classic, turkish-rummy, german, 101") {
		t.Errorf("play -h does not list 101: %s%s", out, errs)
	}
}

// TestBotSummaryOfAnUnfinishedMatch: okey bot's line for a match whose
// transcript stops early says "unfinished, honest so far" and gives 3, not
// a verdict against anyone; a named seat gives 1, an honest match 0.
func TestBotSummaryOfAnUnfinishedMatch(t *testing.T) {
	lane.NoRace(t) // a network match: cmd/okey starts no goroutine; netplay's tests race the bot's loop, and TestBotPlaysOverLoopback is the CLI's share
	files := transcripts(t)
	for _, tc := range []struct {
		file, want string
		status     int
	}{
		{"cut", "unfinished, honest so far", 3},
		{"honest", "verified", 0},
		{"cheat", "CHEATING", 1},
		{"flip", "does not hold", 2},
	} {
		tr, _, err := verdict.Read(files[tc.file])
		if err != nil {
			t.Fatal(err)
		}
		o := &netplay.Outcome{Report: *table.Verify(tr), Config: tr.Config, Transcript: files[tc.file]}
		var out strings.Builder
		st := printMatch(&out, 1, lobby.Announcement{Table: "t1"}, o)
		if st != tc.status || !strings.Contains(out.String(), tc.want) || strings.Contains(out.String(), "<nil>") {
			t.Errorf("%s: status %d, %q; want %d and %q", tc.file, st, out.String(), tc.status, tc.want)
		}
	}
}
