package participant

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/okey-game/okey/tournament"
)

// honestFolder is the conformance suite's honest tournament folder: six
// players, two rounds, every transcript.
var honestFolder = filepath.Join("..", "..", "testdata", "conformance", "tournaments", "honest-6")

// TestLoadFolderTestdata loads a real folder: its records and every
// table's transcript, which tournament.Check finds honest and complete,
// with the standings the suite fixes (cases.json).
func TestLoadFolderTestdata(t *testing.T) {
	if !IsFolder(honestFolder) {
		t.Fatalf("%s is not a tournament folder", honestFolder)
	}
	recs, matches, err := LoadFolder(honestFolder)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 || len(matches) != 4 {
		t.Fatalf("%d records, %d matches; want records and 4 matches", len(recs), len(matches))
	}
	for _, ref := range []tournament.Ref{{Round: 1, Table: 0}, {Round: 1, Table: 1}, {Round: 2, Table: 0}, {Round: 2, Table: 1}} {
		if matches[ref] == nil {
			t.Errorf("no match for %+v", ref)
		}
	}
	rep := tournament.Check(recs, matches)
	if rep.Status != tournament.StatusHonest {
		t.Fatalf("status %d, want honest: %+v", rep.Status, rep.Problems)
	}
	want := []int{3, 2, 4, 1, 0, 5}
	for i, s := range rep.Final {
		if s.Player != want[i] {
			t.Errorf("final %d: player %d, want %d", i, s.Player, want[i])
		}
	}
}

// TestLoadFolderMissingTranscript: a table's transcript gone from the
// folder is a missing match (unfinished, no one named), not an error.
func TestLoadFolderMissingTranscript(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{RecordsFile, "r1-t1.transcript", "r2-t0.transcript", "r2-t1.transcript"} {
		b, err := os.ReadFile(filepath.Join(honestFolder, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	recs, matches, err := LoadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if matches[tournament.Ref{Round: 1, Table: 0}] != nil || len(matches) != 3 {
		t.Fatalf("%d matches, want the 3 in the folder", len(matches))
	}
	if rep := tournament.Check(recs, matches); rep.Status != tournament.StatusUnfinished {
		t.Fatalf("status %d, want unfinished", rep.Status)
	}
}

// TestLoadFolderNoRecords: a folder without its records file is an error.
func TestLoadFolderNoRecords(t *testing.T) {
	if _, _, err := LoadFolder(t.TempDir()); err == nil {
		t.Fatal("no error for a folder without records")
	}
}
