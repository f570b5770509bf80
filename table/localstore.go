package table

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/okey-game/okey/internal/atomicfile"
)

// A local match is a match against bots in one process (package ui's
// PlayLocal), kept under a data directory's matches/ folder so that it can
// be resumed: its match file and, beside it, one DirStore per seat.

// Files of a local match's directory: the match file (config, every seat's
// key seed, the bots' strategy; 0600), one DirStore per seat, and the
// done marker written when the match ended.
const (
	LocalPrefix    = "local-" // the directory's name under data/matches begins so
	LocalMatchFile = "local.json"
	LocalDoneFile  = "done"
)

// localState is the match file. The seeds are test-mode key material of
// seats in this process: written 0600, never logged.
type localState struct {
	Version int      `json:"version"`
	Config  []byte   `json:"config"` // Config.MarshalBinary
	Seeds   [][]byte `json:"seeds"`  // Ed25519 seeds, by seat (null for a seat of Refs)
	// Refs names, by seat, where a seat's lasting key is kept ("" or
	// absent: its seed is in Seeds).
	Refs     []string  `json:"identities,omitempty"`
	Strategy string    `json:"strategy,omitempty"`
	Started  time.Time `json:"started"`
}

// LocalMatch is an unfinished match against bots saved under a data
// directory.
type LocalMatch struct {
	Dir      string
	Ruleset  string
	Names    []string // by seat; the player is seat 0
	Strategy string
	Started  time.Time
}

// Bots returns the number of bot seats.
func (m LocalMatch) Bots() int { return len(m.Names) - 1 }

// UnfinishedLocal lists the matches against bots under data that were left
// before their end, the newest first. Unreadable ones are skipped.
func UnfinishedLocal(data string) ([]LocalMatch, error) {
	root := filepath.Join(data, "matches")
	ents, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []LocalMatch
	for _, e := range ents {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), LocalPrefix) {
			continue
		}
		dir := filepath.Join(root, e.Name())
		if _, err := os.Stat(filepath.Join(dir, LocalDoneFile)); err == nil {
			continue
		}
		st, cfg, err := readLocal(dir)
		if err != nil {
			continue
		}
		m := LocalMatch{Dir: dir, Ruleset: cfg.Ruleset, Strategy: st.Strategy, Started: st.Started}
		for _, s := range cfg.Seats {
			m.Names = append(m.Names, s.Name)
		}
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b LocalMatch) int { return b.Started.Compare(a.Started) })
	return out, nil
}

func readLocal(dir string) (*localState, Config, error) {
	var cfg Config
	b, err := os.ReadFile(filepath.Join(dir, LocalMatchFile))
	if err != nil {
		return nil, cfg, err
	}
	var st localState
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, cfg, fmt.Errorf("table: %s: %v", LocalMatchFile, err)
	}
	if st.Version != 1 {
		return nil, cfg, fmt.Errorf("table: %s: version %d", LocalMatchFile, st.Version)
	}
	if err := cfg.UnmarshalBinary(st.Config); err != nil {
		return nil, cfg, err
	}
	if len(st.Seeds) != len(cfg.Seats) {
		return nil, cfg, fmt.Errorf("table: %s: %d key seeds for %d seats", LocalMatchFile, len(st.Seeds), len(cfg.Seats))
	}
	return &st, cfg, nil
}

// LoadLocal reads a saved match: its config and every seat's key (a
// lasting one loaded with identity), checked against the config.
func LoadLocal(dir string, identity func(string) (ed25519.PrivateKey, error)) (*localState, Config, []ed25519.PrivateKey, error) {
	st, cfg, err := readLocal(dir)
	if err != nil {
		return nil, cfg, nil, err
	}
	if len(st.Refs) > len(cfg.Seats) {
		return nil, cfg, nil, fmt.Errorf("table: %s: %d identities for %d seats", LocalMatchFile, len(st.Refs), len(cfg.Seats))
	}
	keys := make([]ed25519.PrivateKey, len(st.Seeds))
	for i, s := range st.Seeds {
		switch {
		case i < len(st.Refs) && st.Refs[i] != "":
			if identity == nil {
				return nil, cfg, nil, fmt.Errorf("table: %s: seat %d: its key is kept in %s, and nothing loads it", LocalMatchFile, i, st.Refs[i])
			}
			k, err := identity(st.Refs[i])
			if err != nil {
				return nil, cfg, nil, fmt.Errorf("table: %s: seat %d: %w", LocalMatchFile, i, err)
			}
			keys[i] = k
		case len(s) != ed25519.SeedSize:
			return nil, cfg, nil, fmt.Errorf("table: %s: seat %d: bad key seed", LocalMatchFile, i)
		default:
			keys[i] = ed25519.NewKeyFromSeed(s)
		}
		if !keys[i].Public().(ed25519.PublicKey).Equal(cfg.Seats[i].Key) {
			return nil, cfg, nil, fmt.Errorf("table: %s: seat %d: the key does not match the table", LocalMatchFile, i)
		}
	}
	return st, cfg, keys, nil
}

// SaveLocal writes a new match's file (0600, by a rename): the seed of
// each seat's key, or where a lasting key is kept (refs[i] != "").
func SaveLocal(dir string, cfg Config, keys []ed25519.PrivateKey, refs []string, strategy string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	cb, _ := cfg.MarshalBinary()
	st := localState{Version: 1, Config: cb, Strategy: strategy, Started: time.Now().UTC()}
	for i, k := range keys {
		if i < len(refs) && refs[i] != "" {
			st.Seeds = append(st.Seeds, nil)
			continue
		}
		st.Seeds = append(st.Seeds, k.Seed())
	}
	if slices.ContainsFunc(refs, func(r string) bool { return r != "" }) {
		st.Refs = refs
	}
	b, err := json.Marshal(&st)
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, LocalMatchFile), b)
}

// LocalDroppedDir is the folder under the data directory where a match left
// unfinished goes when the player drops it (AskResume): kept whole, its
// transcript still verifies (unfinished, honest so far), but no longer
// offered to resume.
const LocalDroppedDir = "dropped"

// DropLocal moves the unfinished match m, saved under data/matches, to
// data/dropped, whole (the transcripts, the match file with the seats'
// key seeds, the rack): UnfinishedLocal no longer lists it, and its transcript
// still verifies as unfinished. It returns the match's new directory; on
// error nothing moves.
func DropLocal(data string, m LocalMatch) (string, error) {
	name := filepath.Base(m.Dir)
	if filepath.Clean(m.Dir) != filepath.Join(data, "matches", name) || !strings.HasPrefix(name, LocalPrefix) {
		return "", fmt.Errorf("table: %s is not a match against bots under %s", m.Dir, data)
	}
	to := filepath.Join(data, LocalDroppedDir, name)
	if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
		return "", err
	}
	if _, err := os.Lstat(to); err == nil {
		return "", fmt.Errorf("table: %s exists already", to)
	}
	if err := os.Rename(m.Dir, to); err != nil {
		return "", err
	}
	return to, nil
}
