package main

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/okey-game/okey/internal/lane"
)

// TestSim101: okey sim --preset 101 plays a whole 101 match with full
// cryptography, and okey verify finds its transcript honest.
func TestSim101(t *testing.T) {
	lane.NoRace(t)
	dir := t.TempDir()
	code, out, errs := runOkey(t, "", "sim", "--players", "2", "--preset", "101:rounds=3", "--seed", "3", "--out", dir)
	if code != 0 {
		t.Fatalf("sim exit %d: %s %s", code, out, errs)
	}
	// The tiles are shuffled afresh each run: a round cancelled (every
	// player opened with doubles) is played again and does not count.
	rounds, cancelled := simCount(out, "matches: 1, rounds: "), simCount(out, "cancelled (all doubles): ")
	if cancelled < 0 || rounds != 3+cancelled {
		t.Errorf("rounds %d with %d cancelled, want 3 counted:\n%s", rounds, cancelled, out)
	}
	for _, want := range []string{"finishes:", "every transcript verified: yes"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	file := filepath.Join(dir, "match-000.okey")
	code, out, errs = runOkey(t, "", "verify", file)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("honest: 101:rounds=3, 2 players, %d hands", rounds)) {
		t.Fatalf("verify exit %d: %s %s", code, out, errs)
	}
}

// TestSim101Cheat: a 101 cheat is named live and by verify.
func TestSim101Cheat(t *testing.T) {
	lane.NoRace(t)
	dir := t.TempDir()
	code, out, errs := runOkey(t, "", "sim", "--players", "2", "--preset", "101:rounds=3", "--seed", "4",
		"--cheat", "add-before-open", "--cheater", "1", "--out", dir)
	if code != 0 || strings.Count(out, "names seat 1: add-before-open") != 2 {
		t.Fatalf("sim exit %d: %s %s", code, out, errs)
	}
	code, out, _ = runOkey(t, "", "verify", filepath.Join(dir, "match-000.okey"))
	if code != 1 || !strings.Contains(out, "add-before-open") {
		t.Fatalf("verify exit %d: %s", code, out)
	}
}

// TestSim101UsageErrors: the 101 cheats need the 101 preset, the classic
// move cheats and bots are refused at a 101 table; okey play no longer
// refuses 101.
func TestSim101UsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"sim", "--preset", "classic", "--cheat", "false-opening"},
		{"sim", "--preset", "101", "--cheat", "false-win"},
		{"sim", "--preset", "101", "--bots", "random"},
	} {
		if code, _, errs := runOkey(t, "", args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
	// okey play takes 101 now: only its own usage errors refuse it.
	code, _, errs := runOkey(t, "", "play", "--preset", "101", "--bots", "4")
	if code != 2 || strings.Contains(errs, "101") {
		t.Fatalf("play --preset 101 --bots 4: exit %d, %q", code, errs)
	}
}

// simCount reads the number after label in a sim summary (-1 if absent).
func simCount(out, label string) int {
	i := strings.Index(out, label)
	if i < 0 {
		return -1
	}
	rest := out[i+len(label):]
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	n, err := strconv.Atoi(rest[:j])
	if err != nil {
		return -1
	}
	return n
}
