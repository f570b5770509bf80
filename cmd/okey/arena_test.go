package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

func TestArenaUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"arena"}, "needs --bots"},
		{[]string{"arena", "--bots", "greedy"}, "names 1 seats"},
		{[]string{"arena", "--bots", "greedy,oracle"}, "unknown strategy"},
		{[]string{"arena", "--bots", "greedy,greedy", "--hands", "0"}, "--hands 0"},
		{[]string{"arena", "--bots", "greedy,greedy", "--preset", "poker"}, "unknown preset"},
		{[]string{"arena", "--bots", "greedy,greedy", "x"}, "takes no arguments"},
		{[]string{"arena", "--bots", "greedy,greedy", "--vs", "greedy,greedy,greedy"}, "--vs names 3 seats, --bots 2"},
		{[]string{"arena", "--bots", "greedy,greedy", "--vs", "greedy,oracle"}, "--vs: bot: unknown strategy"},
		{[]string{"arena", "--bots", "greedy,greedy", "--preset", "101"}, "Okey 101 is played by b101 only"},
		{[]string{"arena", "--bots", "b101,b101"}, "unknown strategy \"b101\""},
	} {
		var out, errb bytes.Buffer
		if code := run(tc.args, nil, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", tc.args, code, errb.String())
		}
		if !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: stderr %q, want %q", tc.args, errb.String(), tc.want)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"arena", "-h"}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "usage: okey arena") {
		t.Errorf("-h: exit %d, stdout %q (help goes to stdout and exits 0)", code, out.String())
	}
}

// TestArenaOutput: the line format of the issue, and --json with the same
// figures; the same seed gives the same output.
func TestArenaOutput(t *testing.T) {
	args := []string{"arena", "--bots", "greedy,random", "--hands", "8", "--seed", "3"}
	var out, errb bytes.Buffer
	if code := run(args, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	line := regexp.MustCompile(`(?m)^greedy +\d+/8 hands  \d+\.\d% \[\d+\.\d-\d+\.\d\]  avg -?\d+\.\d  groups \d+ pairs \d+ okey \d+$`)
	if !line.MatchString(out.String()) {
		t.Fatalf("no greedy line in the issue's format:\n%s", out.String())
	}
	var again bytes.Buffer
	run(args, nil, &again, &errb)
	if again.String() != out.String() {
		t.Fatalf("same seed, different output:\n%s\n%s", out.String(), again.String())
	}
	var js bytes.Buffer
	if code := run(append(args, "--json"), nil, &js, &errb); code != 0 {
		t.Fatalf("--json exit %d: %s", code, errb.String())
	}
	var got struct {
		Hands      int
		Strategies []struct {
			Strategy string
			Wins     int
		}
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil || got.Hands != 8 || len(got.Strategies) != 2 || got.Strategies[0].Strategy != "greedy" {
		t.Fatalf("--json: %v %+v\n%s", err, got, js.String())
	}
}

// TestArenaVs: the figures by deal follow the per-hand lines, and --vs
// plays the second line-up on the same deals and pairs them; the first
// line-up's lines are those of a run without --vs.
func TestArenaVs(t *testing.T) {
	args := []string{"arena", "--bots", "greedy,random", "--hands", "12", "--seed", "3"}
	var plain, out, errb bytes.Buffer
	if code := run(args, nil, &plain, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !regexp.MustCompile(`(?m)^by deal \(6 deals, 2 rotations each; .*placement parity 1\.50\):\n` +
		`greedy share \d+\.\d% \[\d+\.\d-\d+\.\d\]  placement \d\.\d\d \[\d\.\d\d-\d\.\d\d\]  ±1 point needs ~\d+ deals$`).MatchString(plain.String()) {
		t.Fatalf("no figures by deal:\n%s", plain.String())
	}
	if code := run(append(args, "--vs", "random,random"), nil, &out, &errb); code != 0 {
		t.Fatalf("--vs exit %d: %s", code, errb.String())
	}
	if !strings.HasPrefix(out.String(), plain.String()) {
		t.Fatalf("--vs changed the first line-up's lines:\n%s\nwithout --vs:\n%s", out.String(), plain.String())
	}
	if !regexp.MustCompile(`(?m)^paired greedy - random on the same 6 deals: share \+\d+\.\d points \[[-+]\d+\.\d, [-+]\d+\.\d\]  placement -\d\.\d\d`).MatchString(out.String()) {
		t.Fatalf("no paired line:\n%s", out.String())
	}
	var js bytes.Buffer
	if code := run(append(args, "--vs", "random,random", "--json"), nil, &js, &errb); code != 0 {
		t.Fatalf("--json exit %d: %s", code, errb.String())
	}
	var got struct {
		Deals  int
		Paired struct {
			A, B      string
			ShareDiff []float64 `json:"share_diff"`
		}
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil || got.Deals != 6 || got.Paired.A != "greedy" || got.Paired.B != "random" ||
		len(got.Paired.ShareDiff) != 3 || got.Paired.ShareDiff[0] <= 0 {
		t.Fatalf("--json: %v %+v\n%s", err, got, js.String())
	}
}

// TestArena101: okey arena --preset 101 plays Okey 101 rounds with b101
// (issue 24 point 11: it failed with an internal error).
func TestArena101(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"arena", "--preset", "101", "--bots", "b101,b101,b101,b101", "--hands", "8", "--vs", "b101,b101,b101,b101"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^101, 8 hands, seed 1, seats b101,b101,b101,b101$`),
		regexp.MustCompile(`(?m)^b101 +\d/8 hands  \d+\.\d% .*\(4 seats: `),
		regexp.MustCompile(`(?m)^b101 share \d+\.\d% .* placement 2\.50 `),
		regexp.MustCompile(`(?m)^paired b101 - b101 on the same 2 deals: share \+0\.0 points \[\+0\.0, \+0\.0\]`),
	} {
		if !want.MatchString(out.String()) {
			t.Fatalf("no line %s:\n%s", want, out.String())
		}
	}
}
