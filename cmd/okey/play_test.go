package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlayAndReplayBadInput(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk")
	if err := os.WriteFile(junk, []byte("not a transcript"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "--bots", "5"}, "--bots must be 1, 2 or 3"},
		{[]string{"play", "--bots", "3", "--players", "2"}, "does not match"},
		{[]string{"play", "--bots", "1", "--preset", "nope"}, "unknown preset"},
		{[]string{"play", "--bots", "1", "--strategy", "nope"}, "unknown strategy"},
		{[]string{"play", "extra"}, "takes no arguments"},
		{[]string{"play", "--bots", "1", "--timer", "3"}, "--timer 3: want 5 to 600 seconds"},
		{[]string{"play", "--bots", "1", "--preset", "classic:timer=30", "--timer", "20"}, "set the turn timer once"},
		{[]string{"play", "--resume", "--data", filepath.Join(dir, "d")}, "--resume: no unfinished match against bots"},
		{[]string{"replay"}, "usage: okey replay"},
		{[]string{"replay", filepath.Join(dir, "missing")}, "no such file"},
		{[]string{"replay", junk}, "not a transcript"},
	} {
		var out, errb bytes.Buffer
		if code := run(tc.args, nil, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", tc.args, code, errb.String())
		}
		if !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: stderr %q, want %q", tc.args, errb.String(), tc.want)
		}
	}
}
