package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/okey-game/okey/internal/lane"
)

// TestTrainResumes: a tiny training run writes the net and its note (the
// command, the seed, the SHA-256); a run stopped after two iterations and
// resumed from its checkpoints gives the same weights as an unbroken run.
func TestTrainResumes(t *testing.T) {
	lane.NoRace(t) // training runs: cmd/okey starts no goroutine; self-play workers are raced in bot's TestSelfPlay
	dir := t.TempDir()
	train := func(iters int, ckpt, out string) string {
		t.Helper()
		var o, e bytes.Buffer
		args := []string{"train", "--iterations", fmt.Sprint(iters), "--hands", "8", "--epochs", "1", "--seed", "3",
			"--checkpoint", ckpt, "--out", out, "--workers", "2"}
		if code := run(args, nil, &o, &e); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, e.String())
		}
		return o.String()
	}
	whole := filepath.Join(dir, "whole.net")
	train(3, filepath.Join(dir, "a"), whole)
	part := filepath.Join(dir, "part.net")
	train(2, filepath.Join(dir, "b"), part)
	if out := train(3, filepath.Join(dir, "b"), part); !strings.Contains(out, "resuming after iteration 1") {
		t.Fatalf("no resume:\n%s", out)
	}
	a, _ := os.ReadFile(whole)
	b, _ := os.ReadFile(part)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatalf("resumed net (%d bytes) differs from the unbroken run's (%d bytes)", len(b), len(a))
	}
	note, err := os.ReadFile(whole + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(a)
	if !strings.Contains(string(note), fmt.Sprintf("sha256 %x", sum)) || !strings.Contains(string(note), "okey train --iterations 3 --hands 8 --epochs 1") {
		t.Fatalf("note:\n%s", note)
	}
	var o, e bytes.Buffer
	if code := run([]string{"train", "--explore", "0"}, nil, &o, &e); code != 2 || !strings.Contains(e.String(), "--explore") {
		t.Fatalf("--explore 0: exit %d, %s", code, e.String())
	}
}

// TestTrainImitates: a tiny imitation run (iteration 0 from the expert's
// hands, iteration 1 DAgger on the learned player's) writes a net whose
// note gives the --imitate flag; a learned teacher is refused.
func TestTrainImitates(t *testing.T) {
	lane.NoRace(t) // training runs: cmd/okey starts no goroutine; self-play workers are raced in bot's TestSelfPlay
	out := filepath.Join(t.TempDir(), "imit.net")
	var o, e bytes.Buffer
	args := []string{"train", "--imitate", "expert", "--iterations", "2", "--hands", "4", "--epochs", "1", "--seed", "3",
		"--hidden", "8", "--out", out, "--workers", "2"}
	if code := run(args, nil, &o, &e); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, e.String())
	}
	if !strings.Contains(o.String(), "iteration 1:") {
		t.Fatalf("no second iteration:\n%s", o.String())
	}
	note, err := os.ReadFile(out + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(note), "--imitate expert --hidden 8") {
		t.Fatalf("note:\n%s", note)
	}
	o.Reset()
	e.Reset()
	if code := run([]string{"train", "--imitate", "learned"}, nil, &o, &e); code != 2 || !strings.Contains(e.String(), "--imitate") {
		t.Fatalf("--imitate learned: exit %d, %s", code, e.String())
	}
}
