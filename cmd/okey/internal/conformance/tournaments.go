package conformance

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/tournament/participant"
)

// TournamentDir is the tournament cases' folder inside a suite.
const TournamentDir = "tournaments"

// The frozen base folders under tournaments/: 6 players, 2 rounds of
// classic:points=2, with version 2 records and with version 1 records.
const (
	TournamentBase   = "honest-6"
	TournamentBaseV1 = "honest-v1-6"
)

// TournamentVersion is the tournament cases file's format version.
const TournamentVersion = 1

// TournamentSuite is tournaments/cases.json: tournament folders and the
// verdicts every conforming verifier gives (protocol.md 8 and 9.7).
type TournamentSuite struct {
	Version int              `json:"version"`
	Cases   []TournamentCase `json:"cases"`
}

// TournamentCase is one folder and its verdict. The folder is the files
// of Base (a folder under tournaments/, "" for none), less Removed, with
// the files of Dir (under tournaments/) over them.
type TournamentCase struct {
	Name    string   `json:"name"`
	Base    string   `json:"base"`
	Dir     string   `json:"dir"`
	Removed []string `json:"removed"`
	// Status is 9.7's overall status.
	Status int `json:"status"`
	// Named are the keys named (status 1), lowercase hex, ascending; [] else.
	Named []string `json:"named"`
	// Final are the final standings as roster indices, best first; null
	// when they are not defined.
	Final []int `json:"final"`
	// Note says what the case shows (not compared).
	Note string `json:"note"`
}

// TournamentKey is the key of player i of the frozen tournaments (player 0
// creates them): derived cases re-sign records with these keys.
func TournamentKey(i int) ed25519.PrivateKey {
	seed := sha256.Sum256(fmt.Appendf(nil, "okey conformance tournament key %d", i))
	return ed25519.NewKeyFromSeed(seed[:])
}

// FreezeTournament plays a tournament of n greedy bots (TournamentKey(i),
// player 0 creating) over the in-memory bus and writes player 0's folder
// to dir. Its draws and deals come from crypto/rand: the bases of the
// tournament cases are made once and kept (frozen), and the derived cases
// are generated from them.
func FreezeTournament(dir string, n int, format, ruleset string, version int) error {
	bus := participant.NewMemBus()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tmp, err := os.MkdirTemp("", "okey-freeze-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("peer-%d", i)
		c := participant.Config{Dir: filepath.Join(tmp, id), Key: TournamentKey(i), Name: fmt.Sprintf("bot%d", i), PeerID: id, Net: bus.Join(id),
			Mover:    func(int) table.Mover { return bot.NewGreedy() },
			TableNet: func(_ tournament.Ref, cfg table.Config) (table.Transport, error) { return bus.TableNet(id, cfg), nil },
			Withhold: time.Minute, Retry: 200 * time.Millisecond}
		if i == 0 {
			c.Create = &participant.Create{Name: "cup", Format: format, Ruleset: ruleset, Players: n, Version: version}
		}
		p, err := participant.New(c)
		if err != nil {
			return err
		}
		wg.Add(1)
		go func() { defer wg.Done(); _, errs[i] = p.Run(ctx) }()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	src := filepath.Join(tmp, "peer-0")
	ents, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// LoadTournaments reads DIR/tournaments/cases.json; a suite without it has
// no tournament cases (nil, nil).
func LoadTournaments(dir string) (*TournamentSuite, error) {
	var s TournamentSuite
	err := decodeStrict(filepath.Join(dir, TournamentDir, "cases.json"), &s)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if s.Version != TournamentVersion {
		return nil, fmt.Errorf("conformance: tournament cases version %d, this okey reads %d", s.Version, TournamentVersion)
	}
	return &s, nil
}

// readFolder reads every regular file of a folder by name.
func readFolder(dir string) (map[string][]byte, error) {
	files := map[string][]byte{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		files[e.Name()] = b
	}
	return files, nil
}

// caseFiles assembles a case's folder in memory.
func caseFiles(root string, c TournamentCase) (map[string][]byte, error) {
	files := map[string][]byte{}
	if c.Base != "" {
		b, err := readFolder(filepath.Join(root, c.Base))
		if err != nil {
			return nil, err
		}
		files = b
	}
	for _, name := range c.Removed {
		delete(files, name)
	}
	if c.Dir == "" {
		return files, nil
	}
	own, err := readFolder(filepath.Join(root, c.Dir))
	if err != nil {
		return nil, err
	}
	for name, b := range own {
		files[name] = b
	}
	return files, nil
}

// TournamentVerdict is what a case compares of a report.
type TournamentVerdict struct {
	Status int
	Named  []string
	Final  []int
}

// VerdictOf reduces a report to what the cases compare.
func VerdictOf(rep *tournament.Report) TournamentVerdict {
	v := TournamentVerdict{Status: rep.Status, Named: []string{}}
	for _, p := range rep.Problems {
		for _, n := range p.Named {
			k := hex.EncodeToString(n.Key[:])
			if !slices.Contains(v.Named, k) {
				v.Named = append(v.Named, k)
			}
		}
	}
	slices.Sort(v.Named)
	if rep.Final != nil {
		v.Final = []int{}
		for _, s := range rep.Final {
			v.Final = append(v.Final, s.Player)
		}
	}
	return v
}

// checkFiles verifies a folder held in memory (protocol.md 9.7); a records
// file that cannot be split is damage (status 2).
func checkFiles(files map[string][]byte, cache *participant.MatchCache) *tournament.Report {
	recs, matches, err := participant.LoadFiles(files, cache)
	if err != nil {
		return &tournament.Report{Status: tournament.StatusDamaged, Problems: []tournament.Problem{{Status: tournament.StatusDamaged, Table: -1, Rule: "record", Text: err.Error()}}}
	}
	return tournament.Check(recs, matches)
}

// RunTournaments runs the suite's tournament cases, one line each; it
// returns how many failed.
func RunTournaments(dir string, w io.Writer) (int, error) {
	s, err := LoadTournaments(dir)
	if err != nil || s == nil {
		return 0, err
	}
	root := filepath.Join(dir, TournamentDir)
	cache := participant.NewMatchCache()
	failed := 0
	for _, c := range s.Cases {
		files, err := caseFiles(root, c)
		if err != nil {
			return failed, fmt.Errorf("conformance: tournament case %s: %w", c.Name, err)
		}
		got := VerdictOf(checkFiles(files, cache))
		want := TournamentVerdict{Status: c.Status, Named: c.Named, Final: c.Final}
		if want.Named == nil {
			want.Named = []string{}
		}
		if fmt.Sprint(got) == fmt.Sprint(want) && (got.Final == nil) == (want.Final == nil) {
			fmt.Fprintf(w, "ok   tournament %s (status %d)\n", c.Name, c.Status)
			continue
		}
		failed++
		fmt.Fprintf(w, "FAIL tournament %s: want status %d named %v final %v; got status %d named %v final %v\n",
			c.Name, want.Status, want.Named, want.Final, got.Status, got.Named, got.Final)
	}
	return failed, nil
}
