package train

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/okey-game/okey/internal/lane"
)

func small(dir string, iters int) Config {
	return Config{Iterations: iters, Hands: 8, Epochs: 1, Seed: 3, Checkpoint: dir, Workers: 1, Explore: 0.2, Hidden: 4}
}

// TestResumeGivesTheSameNet: a run stopped after an iteration and started
// again on its checkpoints ends with the net of an unbroken run.
func TestResumeGivesTheSameNet(t *testing.T) {
	lane.NoRace(t) // training runs: its self-play workers run under the race detector in bot's TestSelfPlay
	whole, err := Run(small(t.TempDir(), 2), Events{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := Run(small(dir, 1), Events{}); err != nil {
		t.Fatal(err)
	}
	resumed := -1
	trained := 0
	again, err := Run(small(dir, 2), Events{Resumed: func(k int) { resumed = k }, Trained: func(int, int, time.Duration, []float64, time.Duration) { trained++ }})
	if err != nil {
		t.Fatal(err)
	}
	if resumed != 0 || trained != 1 {
		t.Fatalf("resumed after %d, trained %d iterations; want after 0, 1", resumed, trained)
	}
	a, _ := whole.MarshalBinary()
	b, _ := again.MarshalBinary()
	if !bytes.Equal(a, b) {
		t.Fatal("the resumed run's net differs from the unbroken run's")
	}
}

// TestDamagedCheckpoint: a checkpoint that does not load is an error
// naming its iteration, not a fresh start.
func TestDamagedCheckpoint(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "iter-0.net"), []byte("cut"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Run(small(dir, 2), Events{})
	var ce *CheckpointError
	if !errors.As(err, &ce) || ce.Iteration != 0 {
		t.Fatalf("got %v, want a CheckpointError of iteration 0", err)
	}
}

// TestSave: the net and its note, which says how it was made and its
// SHA-256.
func TestSave(t *testing.T) {
	lane.NoRace(t) // training runs: its self-play workers run under the race detector in bot's TestSelfPlay
	c := small("", 1)
	c.Imitate = "expert"
	net, err := Run(c, Events{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "x.net")
	n, sum, err := Save(c, net, path)
	if err != nil {
		t.Fatal(err)
	}
	note, err := os.ReadFile(path + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != int64(n) {
		t.Fatalf("%v %v", fi, err)
	}
	for _, want := range []string{"okey train --iterations 1 --hands 8 --epochs 1 --explore 0.2 --seed 3 --imitate expert --hidden 4\n", "sha256 " + hexOf(sum)} {
		if !strings.Contains(string(note), want) {
			t.Errorf("no %q in %q", want, note)
		}
	}
}

func hexOf(b [32]byte) string { return fmt.Sprintf("%x", b) }
