package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/tournament/participant"
)

// TestTournamentSuiteIsCurrent: the committed tournament cases are what
// GenerateTournaments derives today from the committed frozen folders,
// byte for byte (and the generator checks every case's stated verdict).
func TestTournamentSuiteIsCurrent(t *testing.T) {
	lane.NoRace(t)
	dir := t.TempDir()
	root := filepath.Join(dir, TournamentDir)
	for _, b := range []string{TournamentBase, TournamentBaseV1} {
		files, err := readFolder(filepath.Join(suiteDir, TournamentDir, b))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(root, b), 0o755)
		for n, f := range files {
			os.WriteFile(filepath.Join(root, b, n), f, 0o644)
		}
	}
	if err := GenerateTournaments(dir, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	n := sameAsCommitted(t, dir, root)
	if n < 20 {
		t.Fatalf("only %d files generated", n)
	}
}

// TestTournamentCaseTampered: a case whose stated verdict is wrong fails.
func TestTournamentCaseTampered(t *testing.T) {
	s, err := LoadTournaments(suiteDir)
	if err != nil || s == nil {
		t.Fatalf("no tournament cases: %v", err)
	}
	dir := t.TempDir()
	os.Symlink(mustAbs(t, filepath.Join(suiteDir, TournamentDir)), filepath.Join(dir, "real"))
	var keep []TournamentCase
	for _, c := range s.Cases {
		if c.Name == "cut-round-1" || c.Name == TournamentBase {
			c.Base, c.Dir = prefixed(c.Base), prefixed(c.Dir)
			keep = append(keep, c)
		}
	}
	keep[1].Status = 3 // cut-round-1 is damaged (2), not unfinished
	b := fmt.Appendf(nil, `{"version": %d, "cases": %s}`, TournamentVersion, mustJSON(t, keep))
	os.MkdirAll(filepath.Join(dir, TournamentDir), 0o755)
	os.Symlink(mustAbs(t, filepath.Join(suiteDir, TournamentDir)), filepath.Join(dir, TournamentDir, "real"))
	os.WriteFile(filepath.Join(dir, TournamentDir, "cases.json"), b, 0o644)
	var out bytes.Buffer
	failed, err := RunTournaments(dir, &out)
	if err != nil {
		t.Fatal(err)
	}
	if failed != 1 || !strings.Contains(out.String(), "FAIL tournament cut-round-1") || !strings.Contains(out.String(), "ok   tournament "+TournamentBase) {
		t.Fatalf("failed %d:\n%s", failed, out.String())
	}
}

func prefixed(p string) string {
	if p == "" {
		return ""
	}
	return filepath.Join("real", p)
}

// keylessEdit is an edit of a folder that needs no key.
type keylessEdit struct {
	name  string
	files map[string][]byte // replaced files
	drop  string            // a file removed
}

// keylessEdits makes the edits of a folder that need no key (issue 35): the
// record-boundary prefixes of every transcript, each of its records
// dropped and duplicated, adjacent records swapped, each file removed; in
// the records file each record dropped or duplicated, every
// record-boundary cut, and seeded shuffles. Every transcript edit replays
// a chain, so by default they are sampled (every step-th record, with the
// first 2 and the last 4): step 1 is every one of them (OKEY_KEYLESS=all,
// about 4,000 edits and 5 minutes of CPU).
func keylessEdits(t *testing.T, files map[string][]byte, step int) []keylessEdit {
	t.Helper()
	var out []keylessEdit
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	every := func(n, i int, k int) bool { return i%(k*step) == 0 || i < 2 || i >= n-4 }
	for _, name := range names {
		out = append(out, keylessEdit{name: "remove " + name, drop: name})
		if name == participant.RecordsFile {
			continue
		}
		head, recs, err := SplitTranscript(files[name])
		if err != nil {
			t.Fatal(err)
		}
		with := func(label string, rs []TranscriptRecord) {
			out = append(out, keylessEdit{name: fmt.Sprintf("%s: %s", name, label), files: map[string][]byte{name: JoinTranscript(head, rs)}})
		}
		for k := 0; k < len(recs); k++ {
			if every(len(recs), k, 1) {
				with(fmt.Sprintf("cut to %d records", k), recs[:k])
			}
			if every(len(recs), k, 3) {
				with(fmt.Sprintf("record %d dropped", k), slices.Delete(slices.Clone(recs), k, k+1))
				with(fmt.Sprintf("record %d duplicated", k), slices.Insert(slices.Clone(recs), k, recs[k]))
			}
			if k+1 < len(recs) && every(len(recs), k, 6) {
				sw := slices.Clone(recs)
				sw[k], sw[k+1] = sw[k+1], sw[k]
				with(fmt.Sprintf("records %d and %d swapped", k, k+1), sw)
			}
		}
	}
	raws, err := tournament.DecodeFile(files[participant.RecordsFile])
	if err != nil {
		t.Fatal(err)
	}
	rec := func(label string, rs [][]byte) {
		out = append(out, keylessEdit{name: "records file: " + label, files: map[string][]byte{participant.RecordsFile: tournament.EncodeFile(rs)}})
	}
	for i := range raws {
		rec(fmt.Sprintf("record %d dropped", i), slices.Delete(slices.Clone(raws), i, i+1))
		rec(fmt.Sprintf("record %d duplicated", i), slices.Insert(slices.Clone(raws), i, raws[i]))
		rec(fmt.Sprintf("cut to %d records", i), raws[:i])
	}
	r := rand.New(rand.NewPCG(35, 1))
	for i := 0; i < 20; i++ {
		sh := slices.Clone(raws)
		r.Shuffle(len(sh), func(a, b int) { sh[a], sh[b] = sh[b], sh[a] })
		rec(fmt.Sprintf("shuffle %d", i), sh)
	}
	return out
}

// TestNoKeylessEditNamesAnyone: no edit of a tournament folder that needs
// no key gives status 1 (issue 35: a cut file named every player of the
// next round), on a version 2 folder and on one written as okey wrote them
// before round results; and in the version 2 folder no such edit of a
// transcript changes the final standings silently: they are the honest
// ones or not defined.
func TestNoKeylessEditNamesAnyone(t *testing.T) {
	lane.NoRace(t)
	for _, b := range []string{TournamentBase, TournamentBaseV1} {
		t.Run(b, func(t *testing.T) {
			files, err := readFolder(filepath.Join(suiteDir, TournamentDir, b))
			if err != nil {
				t.Fatal(err)
			}
			honest := VerdictOf(checkFiles(files, nil))
			step := 8
			switch {
			case os.Getenv("OKEY_KEYLESS") == "all":
				step = 1
			case testing.Short():
				step = 64
			}
			edits := keylessEdits(t, files, step)
			t.Logf("%d edits", len(edits))
			type result struct {
				e keylessEdit
				v TournamentVerdict
			}
			work := make(chan keylessEdit)
			results := make(chan result)
			var wg sync.WaitGroup
			for w := 0; w < runtime.GOMAXPROCS(0); w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					cache := participant.NewMatchCache()
					for e := range work {
						results <- result{e, VerdictOf(checkFiles(over(files, e.files, e.drop), cache))}
					}
				}()
			}
			go func() {
				for _, e := range edits {
					work <- e
				}
				close(work)
				wg.Wait()
				close(results)
			}()
			var statuses [4]int
			for r := range results {
				statuses[r.v.Status]++
				if r.v.Status == tournament.StatusCheating {
					t.Errorf("%s: status 1, named %v", r.e.name, r.v.Named)
				}
				if b == TournamentBase && r.e.files != nil && r.e.files[participant.RecordsFile] == nil &&
					r.v.Final != nil && fmt.Sprint(r.v.Final) != fmt.Sprint(honest.Final) {
					t.Errorf("%s: the final standings changed silently: %v, honest %v", r.e.name, r.v.Final, honest.Final)
				}
			}
			t.Logf("statuses 0/1/2/3: %v", statuses)
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
