package folder

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/language"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/tournament/participant"
)

// suite is the conformance suite's tournament folders.
var suite = filepath.Join("..", "..", "testdata", "conformance", "tournaments")

func english(t *testing.T) {
	t.Helper()
	old := i18n.Current()
	i18n.Set(language.English)
	t.Cleanup(func() { i18n.Set(old) })
}

// caseFolder is a conformance case's folder: the honest base's files with
// the case's records file over them.
func caseFolder(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	base := filepath.Join(suite, "honest-6")
	es, err := os.ReadDir(base)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		b, err := os.ReadFile(filepath.Join(base, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(suite, "cases", name, "tournament"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tournament"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestVerifyHonestText(t *testing.T) {
	english(t)
	var out bytes.Buffer
	if st := Verify(filepath.Join(suite, "honest-6"), false, &out); st != 0 {
		t.Fatalf("status %d, want 0:\n%s", st, out.String())
	}
	for _, want := range []string{"6 players", "round 1: draw ", "round 2: draw ", "final standings:", "verdict: honest and complete\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), suite) {
		t.Errorf("the text names the folder's path (it must be the same on every machine):\n%s", out.String())
	}
}

func TestVerifyHonestJSON(t *testing.T) {
	var out bytes.Buffer
	dir := filepath.Join(suite, "honest-6")
	if st := Verify(dir, true, &out); st != 0 {
		t.Fatalf("status %d, want 0:\n%s", st, out.String())
	}
	var j jsonTournament
	if err := json.Unmarshal(out.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	// cases.json: honest-6's final standings by roster index.
	want := []int{3, 2, 4, 1, 0, 5}
	if j.Folder != dir || j.Status != 0 || len(j.Players) != 6 || len(j.Rounds) != 2 || len(j.Final) != len(want) || len(j.ID) != 64 {
		t.Fatalf("got %+v", j)
	}
	for i, s := range j.Final {
		if s.Player != want[i] || s.Place != i+1 {
			t.Errorf("final %d: player %d place %d, want player %d place %d", i, s.Player, s.Place, want[i], i+1)
		}
	}
}

func TestVerifyNamesTheCheat(t *testing.T) {
	english(t)
	var out bytes.Buffer
	if st := Verify(caseFolder(t, "bad-reveal"), false, &out); st != 1 {
		t.Fatalf("status %d, want 1:\n%s", st, out.String())
	}
	// cases.json: the key named begins 11f9146a.
	for _, want := range []string{"CHEATING: ", " 11f9146a revealed a value that does not open its commitment", "verdict: CHEATING"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
}

func TestVerifyUnreadable(t *testing.T) {
	english(t)
	for _, asJSON := range []bool{false, true} {
		var out bytes.Buffer
		dir := t.TempDir()
		if st := Verify(dir, asJSON, &out); st != 2 {
			t.Fatalf("json %v: status %d, want 2", asJSON, st)
		}
		if !asJSON && !strings.Contains(out.String(), "tournament records unreadable") {
			t.Errorf("got %q", out.String())
		}
		if asJSON && !strings.Contains(out.String(), `"status":2`) {
			t.Errorf("got %q", out.String())
		}
	}
}

// TestPrintRound: a round's tables with their state, then the standings
// after it, as a participant prints them.
func TestPrintRound(t *testing.T) {
	english(t)
	recs, matches, err := participant.LoadFolder(filepath.Join(suite, "honest-6"))
	if err != nil {
		t.Fatal(err)
	}
	rep := tournament.Check(recs, matches)
	var out bytes.Buffer
	PrintRound(&out, rep, 2)
	want := fmt.Sprintf("round 2 of %d done:\n  table 1 (%x): finished\n", rep.Format.Rounds, rep.Rounds[1].Tables[0].ID[:4])
	if !strings.HasPrefix(out.String(), want) || !strings.Contains(out.String(), "\n    1. ") || strings.Contains(out.String(), "round 1") {
		t.Errorf("got:\n%s\nwant it to start with:\n%s", out.String(), want)
	}
}
