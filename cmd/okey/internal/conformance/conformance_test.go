package conformance

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/okey-game/okey/internal/lane"
)

const suiteDir = "../../../../testdata/conformance"

// TestSuite: okey's verifier gives every expected verdict of the committed
// suite and passes every vector.
func TestSuite(t *testing.T) {
	lane.NoRace(t) // verify over the whole suite: verify's goroutines run under the race detector in table's raced matches
	var out bytes.Buffer
	failed, err := Run(suiteDir, &out)
	if err != nil {
		t.Fatal(err)
	}
	if failed > 0 {
		t.Fatalf("%d failures:\n%s", failed, out.String())
	}
	if n := strings.Count(out.String(), "\n"); n < 30 {
		t.Fatalf("only %d cases and vector files:\n%s", n, out.String())
	}
}

// TestSuiteIsCurrent: the committed suite is what the generator writes
// today, byte for byte; a protocol change that forgets `make conformance`
// fails here. (Without the race detector: it plays some thirty matches.)
func TestSuiteIsCurrent(t *testing.T) {
	lane.NoRace(t)
	if testing.Short() {
		t.Skip("plays the suite's matches: run without -race (make test does)")
	}
	dir := t.TempDir()
	if err := Generate(dir, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	sameAsCommitted(t, dir, dir)
}

// sameAsCommitted checks that every file generated below root (dir's
// tree) is in the committed suite, byte for byte; it returns how many
// files it compared.
func sameAsCommitted(t *testing.T, dir, root string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		want, err := os.ReadFile(filepath.Join(suiteDir, rel))
		if err != nil {
			t.Errorf("%s: not in the committed suite (run make conformance)", rel)
			return nil
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
			t.Errorf("%s: differs from the committed suite (run make conformance)", rel)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestTamperedCaseFails: Run reports a case whose expectation is wrong.
func TestTamperedCaseFails(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(suiteDir, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), `"rule": "bad-dice"`, `"rule": "bad-proof"`, 1)
	if s == string(b) {
		t.Fatal("no bad-dice case to alter")
	}
	// Only the altered case and one that agrees: TestSuite runs the rest.
	var suite Suite
	if err := json.Unmarshal([]byte(s), &suite); err != nil {
		t.Fatal(err)
	}
	var keep []Case
	for _, c := range suite.Cases {
		if c.Name == "cheat-bad-dice" || c.Name == "honest-classic-2" {
			keep = append(keep, c)
		}
	}
	suite.Cases, suite.Vectors = keep, nil
	nb, err := json.Marshal(suite)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "cases.json"), nb, 0o644)
	os.Symlink(filepath.Join(mustAbs(t, suiteDir), "transcripts"), filepath.Join(dir, "transcripts"))
	var out bytes.Buffer
	failed, err := Run(dir, &out)
	if err != nil {
		t.Fatal(err)
	}
	if failed != 1 || !strings.Contains(out.String(), "FAIL  cheat-bad-dice") || !strings.Contains(out.String(), "ok    honest-classic-2:") {
		t.Fatalf("altered expectation not reported:\n%s", out.String())
	}
}

func mustAbs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
