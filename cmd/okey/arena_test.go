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
