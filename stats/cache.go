package stats

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
)

// CacheFormat is the version of the cache file's format.
const CacheFormat = 1

// Cache remembers what verification said of each file, by the SHA-256 of
// the file's bytes, for one verifier: a cache made by another verifier
// (another build of okey) is not used, so a new verifier checks every file
// again. A file that changes has another hash, so it is verified again too.
type Cache struct {
	// Verifier names the verifier whose verdicts these are (okey stats uses
	// the SHA-256 of its own executable).
	Verifier string
	// Entries maps a file's hex SHA-256 to its verdict.
	Entries map[string]Entry
}

// Entry is one file's verdict and, for an honest or unfinished match, its
// summary.
type Entry struct {
	Status Status `json:"status"`
	// Reason says, in English, why a file is left out (cheating, invalid,
	// unreadable): the verifier's own words.
	Reason string `json:"reason,omitempty"`
	Match  *Match `json:"match,omitempty"`
}

type cacheFile struct {
	Format   int              `json:"okey_stats_cache"`
	Verifier string           `json:"verifier"`
	Entries  map[string]Entry `json:"files"`
}

// ErrCache is the error of a cache file that does not decode or holds
// something no verifier wrote.
var ErrCache = errors.New("record: not a cache file okey stats wrote")

// Limits of what a cache entry may hold (far above any real match).
const (
	maxReason = 4096
	maxHands  = 1000
	maxText   = 256
)

// DecodeCache reads a cache file. Anything that does not decode, is of
// another format, or holds an entry that no verifier could have written
// (a malformed hash or key, a status without its summary, places or seats
// out of range) is an error wrapping ErrCache, and nothing is returned:
// the caller verifies every file again.
func DecodeCache(b []byte) (*Cache, error) {
	var f cacheFile
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&f); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCache, err)
	}
	if d.More() {
		return nil, fmt.Errorf("%w: data after the cache", ErrCache)
	}
	if f.Format != CacheFormat {
		return nil, fmt.Errorf("%w: format %d, want %d", ErrCache, f.Format, CacheFormat)
	}
	if !text(f.Verifier) || f.Verifier == "" {
		return nil, fmt.Errorf("%w: verifier %q", ErrCache, f.Verifier)
	}
	c := &Cache{Verifier: f.Verifier, Entries: f.Entries}
	if c.Entries == nil {
		c.Entries = map[string]Entry{}
	}
	for h, e := range c.Entries {
		if !isHex(h, 32) {
			return nil, fmt.Errorf("%w: file hash %q", ErrCache, h)
		}
		if err := e.check(); err != nil {
			return nil, fmt.Errorf("%w: file %s: %v", ErrCache, h, err)
		}
	}
	return c, nil
}

// Encode returns the cache file's bytes (JSON, the entries in hash order:
// the same cache, the same bytes).
func (c *Cache) Encode() []byte {
	b, err := json.Marshal(cacheFile{Format: CacheFormat, Verifier: c.Verifier, Entries: c.Entries})
	if err != nil {
		panic("record: internal error: " + err.Error())
	}
	return append(b, '\n')
}

func (e Entry) check() error {
	if len(e.Reason) > maxReason || !utf8.ValidString(e.Reason) {
		return errors.New("reason")
	}
	switch e.Status {
	case Honest, Unfinished:
		if e.Match == nil {
			return fmt.Errorf("%s with no match", e.Status)
		}
		return e.Match.check(e.Status == Honest)
	case Cheating, Invalid, Unreadable:
		if e.Match != nil {
			return fmt.Errorf("%s with a match", e.Status)
		}
		return nil
	}
	return fmt.Errorf("status %q", e.Status)
}

// check: what a verified match's summary always satisfies.
func (m *Match) check(finished bool) error {
	if !isHex(m.Config, 32) {
		return fmt.Errorf("config %q", m.Config)
	}
	if m.Ruleset == "" || !text(m.Ruleset) {
		return errors.New("ruleset")
	}
	n := len(m.Seats)
	if n < 2 || n > 4 {
		return fmt.Errorf("%d seats", n)
	}
	if len(m.Hands) > maxHands {
		return fmt.Errorf("%d hands", len(m.Hands))
	}
	for i, s := range m.Seats {
		if !isHex(s.Key, 32) || s.Name == "" || !text(s.Name) {
			return fmt.Errorf("seat %d", i)
		}
		for _, o := range m.Seats[:i] {
			if o.Key == s.Key {
				return fmt.Errorf("seat %d twice", i)
			}
		}
		if s.Team < 0 || s.Team >= n {
			return fmt.Errorf("seat %d team %d", i, s.Team)
		}
		if finished && (s.Place < 1 || s.Place > n) || !finished && s.Place != 0 {
			return fmt.Errorf("seat %d place %d", i, s.Place)
		}
	}
	for i, h := range m.Hands {
		if h.Winner < -1 || h.Winner >= n {
			return fmt.Errorf("hand %d winner %d", i, h.Winner)
		}
		if h.Opened != nil && len(h.Opened) != n {
			return fmt.Errorf("hand %d openings", i)
		}
		for _, o := range h.Opened {
			if o > OpenedDoubles {
				return fmt.Errorf("hand %d opening %d", i, o)
			}
		}
	}
	return nil
}

func isHex(s string, n int) bool {
	if len(s) != 2*n {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil && s == hexLower(s)
}

func hexLower(s string) string {
	b, _ := hex.DecodeString(s)
	return hex.EncodeToString(b)
}

func text(s string) bool { return len(s) <= maxText && utf8.ValidString(s) }
