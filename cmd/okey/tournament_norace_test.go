//go:build !race

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTournamentCLILoopback: okey tournament create with 5 bots in the
// process, on loopback with no mDNS: 6 players, two 3-seat tables, one
// round; each participant fetches the other table's transcript over
// /okey/tournament/1.0.0, and every folder verifies the same, byte for
// byte. (Too slow under the race detector: make test runs it without.)
func TestTournamentCLILoopback(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := runTournament([]string{"create", "--players", "6", "--rounds", "1", "--bots", "5", "--no-mdns",
		"--listen", "/ip4/127.0.0.1/tcp/0", "--dir", filepath.Join(dir, "t"), "--data", filepath.Join(dir, "data"),
		"--linger", "3s", "--wait", "150s"}, nil, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "verdict: honest and complete") || !strings.Contains(out.String(), "final standings:") {
		t.Fatalf("no final standings:\n%s", out.String())
	}
	folders := []string{filepath.Join(dir, "t")}
	for i := 1; i <= 5; i++ {
		folders = append(folders, filepath.Join(dir, "t", "bots", string(rune('0'+i))))
	}
	var first string
	for _, f := range folders {
		for _, tr := range []string{"r1-t0.transcript", "r1-t1.transcript"} {
			if _, err := os.Stat(filepath.Join(f, tr)); err != nil {
				t.Fatalf("%s lacks %s", f, tr)
			}
		}
		code, text := verifyDir(t, f)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", f, code, text)
		}
		if first == "" {
			first = text
		} else if text != first {
			t.Fatalf("okey verify differs between folders:\n%s\n---\n%s", first, text)
		}
	}
}
