// Package collecttest holds the statistics pipeline's test folder, shared
// by package collect's tests and okey stats' golden test.
package collecttest

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Fixture copies a fixed set of the conformance suite's transcripts (from
// src, testdata/conformance/transcripts) into a new folder, each with a
// fixed time (the order of the record), and adds a tampered copy of an
// honest match (one byte of a signature flipped), a second copy of another
// under a data directory's matches/ folder, and two files that are not
// transcripts by name (never read). It returns the folder: what okey
// stats' golden (cmd/okey/testdata/stats.golden.json) says of.
func Fixture(t testing.TB, src string) string {
	t.Helper()
	dir := t.TempDir()
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	i := 0
	put := func(name string, data []byte) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		at := base.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
		i++
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, name := range []string{
		"honest-classic-2.okey", "honest-classic-3.okey", "honest-german-3.okey", "honest-turkish-rummy-4.okey",
		"honest-101-partnerships-4.okey", "cheat-withhold.okey", "cheat-false-win.okey", "bad-signature.okey",
		"not-a-transcript.okey",
	} {
		put(name, read(name))
	}
	tampered := read("honest-classic-3.okey")
	tampered[len(tampered)/2] ^= 0x40
	put("tampered-classic-3.okey", tampered)
	put(filepath.Join("matches", "copy", "transcript"), read("honest-classic-2.okey"))
	put("notes.txt", []byte("hello"))
	put(filepath.Join("matches", "copy", "secret-0"), []byte("x"))
	return dir
}
