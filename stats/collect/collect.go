// Package collect is the statistics pipeline behind okey stats: it finds
// the transcript files under a folder, verifies each content once (on
// every core, table.Verify), keeps each file's verdict in a cache named for
// the verifier that gave it, and builds the record (package stats) from
// the files that verify (Collect writes the cache back); and the report,
// as okey stats --json's object (Summary) or as text for a person
// (WriteText).
package collect

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/rating"
	"github.com/okey-game/okey/stats"
	"github.com/okey-game/okey/table"
)

// CacheFile is the cache's name in a data directory.
const CacheFile = "stats-cache.json"

// MaxCacheEntries bounds the cache: past it, the verdicts of files not
// read in this run are dropped (Prune). maxCacheFile bounds what is read
// of it.
const (
	MaxCacheEntries = 50000
	maxCacheFile    = 256 << 20
)

// MaxTranscriptFile is the largest file taken for a transcript.
const MaxTranscriptFile = 1 << 30

// transcriptMagic opens every transcript file (protocol.md 6).
const transcriptMagic = "okey-transcript/v1\n"

// The rating and interval the record uses, as the summary names them.
const (
	RatingName   = "Weng-Lin Plackett-Luce (OpenSkill defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300, kappa 0.0001)"
	IntervalName = "Wilson score interval, 95%"
)

// Options words the reasons a verdict gives.
type Options struct {
	// Plain says an error for a person, in English (nil: err.Error()).
	Plain func(error) string
}

func (o Options) plain(err error) string {
	if o.Plain == nil {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	return o.Plain(err)
}

// File is one file read: its path, when it was last written, the hex
// SHA-256 of its bytes ("" when unreadable), its verdict, and the file
// holding the copy of its match that counts (Dup, set by Report).
type File struct {
	Path  string
	When  time.Time
	Hash  string
	Entry stats.Entry
	Dup   string
}

// Summary is okey stats' account of a run (its --json output).
type Summary struct {
	Read       int             `json:"read"`
	Kept       int             `json:"kept"`
	Unfinished int             `json:"unfinished"`
	LeftOut    int             `json:"left_out"`
	Duplicates int             `json:"duplicates"`
	Verified   int             `json:"verified"`   // verified in this run
	FromCache  int             `json:"from_cache"` // files whose verdict was in the cache
	Files      []FileSummary   `json:"files"`
	Rating     string          `json:"rating"`
	Interval   string          `json:"interval"`
	Matches    int             `json:"matches"`
	Players    []PlayerSummary `json:"players"`
}

// FileSummary is one file's line in a Summary.
type FileSummary struct {
	File    string `json:"file"`
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Copy    string `json:"copy_of,omitempty"`
	Ruleset string `json:"ruleset,omitempty"`
}

// PlayerSummary is one player's figures in a Summary, rounded (Round), and
// whether the player is the data directory's own identity.
type PlayerSummary struct {
	stats.Player
	You bool `json:"you,omitempty"`
}

// Find lists the transcript files under root: regular files named
// transcript or ending in .okey, sorted. A root that is a file is taken as
// it is.
func Find(root string) ([]string, error) {
	fi, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return []string{root}, nil
	}
	var out []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // an unreadable subfolder: its files are not found
		}
		if d.Type().IsRegular() && (d.Name() == "transcript" || strings.HasSuffix(d.Name(), ".okey")) {
			out = append(out, p)
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}

// VerifierID names this verifier: the SHA-256 of the running program. Any
// other build of okey is another verifier, whose verdicts are not reused.
func VerifierID() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return "okey-exe-sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// ErrCacheTooLarge is LoadCache's complaint about a cache past its bound.
var ErrCacheTooLarge = errors.New("too large")

// LoadCache reads the cache for verifier v: an empty one when there is
// none or when it was made by another verifier. When the file is there but
// is not a cache okey wrote, it returns an empty cache and the reason
// (every file is then verified again).
func LoadCache(path, v string) (*stats.Cache, error) {
	fresh := &stats.Cache{Verifier: v, Entries: map[string]stats.Entry{}}
	f, err := os.Open(path)
	if err != nil {
		return fresh, nil
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxCacheFile+1))
	if err != nil {
		return fresh, nil
	}
	if len(b) > maxCacheFile {
		return fresh, ErrCacheTooLarge
	}
	c, err := stats.DecodeCache(b)
	if err != nil {
		return fresh, err
	}
	if c.Verifier != v {
		return fresh, nil // another verifier: verify again
	}
	return c, nil
}

// Prune keeps the cache within MaxCacheEntries: past it, only the verdicts
// of files (those read now) stay. It reports whether it dropped any.
func Prune(cache *stats.Cache, files []File) bool {
	if cache == nil || len(cache.Entries) <= MaxCacheEntries {
		return false
	}
	seen := map[string]bool{}
	for _, f := range files {
		seen[f.Hash] = true
	}
	maps.DeleteFunc(cache.Entries, func(h string, _ stats.Entry) bool { return !seen[h] })
	return true
}

// Verify hashes each file and verifies, once each, the contents the cache
// does not know (two files with the same bytes are verified once), on
// every core. It adds what it verified to the cache (nil: none) and
// returns the files in the order given, how many contents it verified, and
// how many files' verdicts it found in the cache.
func Verify(paths []string, cache *stats.Cache, o Options) (files []File, verified, hits int) {
	files = make([]File, len(paths))
	parallel(len(paths), func(i int) {
		f := &files[i]
		f.Path = paths[i]
		hash, when, err := hashFile(f.Path, o)
		f.When = when
		if err != nil {
			f.Entry = stats.Entry{Status: stats.Unreadable, Reason: err.Error()}
			return
		}
		f.Hash = hash
	})
	// The contents to verify: each unknown hash once, from its first file
	// (todo[j] is that file; first maps the hash to j).
	var todo []int
	first := map[string]int{}
	for i, f := range files {
		if f.Hash == "" {
			continue
		}
		if cache != nil {
			if e, ok := cache.Entries[f.Hash]; ok {
				files[i].Entry = e
				hits++
				continue
			}
		}
		if _, ok := first[f.Hash]; !ok {
			first[f.Hash] = len(todo)
			todo = append(todo, i)
		}
	}
	entries := make([]stats.Entry, len(todo))
	transient := make([]bool, len(todo)) // a read error: not the content's verdict, not cached
	parallel(len(todo), func(k int) {
		f := files[todo[k]]
		data, err := readFile(f.Path, o)
		if err == nil && hashOf(data) != f.Hash {
			err = fmt.Errorf("cannot be read: %s", "the file changed while it was read")
		}
		if err != nil {
			entries[k], transient[k] = stats.Entry{Status: stats.Unreadable, Reason: err.Error()}, true
			return
		}
		entries[k] = VerifyBytes(data, o)
	})
	for i, f := range files {
		if f.Hash == "" {
			continue
		}
		if j, ok := first[f.Hash]; ok {
			e := entries[j]
			files[i].Entry = e
			if cache != nil && !transient[j] {
				cache.Entries[f.Hash] = e
			}
		}
	}
	return files, len(todo), hits
}

func hashOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// parallel runs do(0..n-1) on every core and returns when all are done.
func parallel(n int, do func(i int)) {
	work := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				do(i)
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
}

// hashFile returns the hex SHA-256 of a file's bytes, streamed (a run that
// finds every verdict in the cache reads each file once and keeps none of
// it), and the time it was last written.
func hashFile(path string, o Options) (string, time.Time, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("cannot be read: %s", o.plain(errors.Unwrap(err)))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", time.Time{}, fmt.Errorf("cannot be read: %s", o.plain(errors.Unwrap(err)))
	}
	if fi.Size() > MaxTranscriptFile {
		return "", fi.ModTime(), fmt.Errorf("not an okey transcript (%d bytes, more than any match)", fi.Size())
	}
	h := sha256.New()
	buf := hashBufs.Get().(*[]byte)
	defer hashBufs.Put(buf)
	if _, err := io.CopyBuffer(h, io.LimitReader(f, MaxTranscriptFile+1), *buf); err != nil {
		return "", fi.ModTime(), fmt.Errorf("cannot be read: %s", o.plain(errors.Unwrap(err)))
	}
	return hex.EncodeToString(h.Sum(nil)), fi.ModTime(), nil
}

var hashBufs = sync.Pool{New: func() any { b := make([]byte, 1<<20); return &b }}

func readFile(path string, o Options) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("cannot be read: %s", o.plain(errors.Unwrap(err)))
	}
	if fi.Size() > MaxTranscriptFile {
		return nil, fmt.Errorf("not an okey transcript (%d bytes, more than any match)", fi.Size())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot be read: %s", o.plain(errors.Unwrap(err)))
	}
	return data, nil
}

// VerifyBytes verifies a transcript's bytes and summarises the match.
func VerifyBytes(data []byte, o Options) stats.Entry {
	if !bytes.HasPrefix(data, []byte(transcriptMagic)) {
		return stats.Entry{Status: stats.Unreadable, Reason: "not an okey transcript"}
	}
	t, err := table.ReadTranscript(bytes.NewReader(data))
	if err != nil {
		return stats.Entry{Status: stats.Unreadable, Reason: o.plain(err)}
	}
	rep := table.Verify(t)
	switch rep.Status() {
	case table.StatusHonest:
		return stats.Entry{Status: stats.Honest, Match: Summarise(t, rep)}
	case table.StatusUnfinished:
		return stats.Entry{Status: stats.Unfinished, Match: Summarise(t, rep)}
	case table.StatusCheating:
		v := rep.Violation
		name := ""
		if v.Seat >= 0 && v.Seat < len(rep.Seats) {
			name = rep.Seats[v.Seat]
		}
		return stats.Entry{Status: stats.Cheating, Reason: fmt.Sprintf("seat %d (%s) broke %s at message %d: %s", v.Seat, name, v.Rule, v.Step, o.plain(v.Err))}
	}
	reason := "the transcript does not hold"
	if rep.Invalid != nil {
		reason = o.plain(rep.Invalid)
	}
	return stats.Entry{Status: stats.Invalid, Reason: reason}
}

// Summarise is what a record needs of a verified match: the seats by
// identity key, their teams, final scores and places (none when
// unfinished), and each finished hand's winner and kind.
func Summarise(t *table.Transcript, rep *table.Report) *stats.Match {
	h := t.Config.Hash()
	m := &stats.Match{Config: hex.EncodeToString(h[:]), Ruleset: t.Config.Ruleset}
	n := len(t.Config.Seats)
	teams := t.Config.Rules().Teams(n)
	var final []int
	if k := len(rep.Hands); k > 0 {
		final = rep.Hands[k-1].Scores
	}
	for i, s := range t.Config.Seats {
		seat := stats.Seat{Key: hex.EncodeToString(s.Key), Name: s.Name, Team: i}
		if teams {
			seat.Team = i % 2
		}
		if i < len(final) {
			seat.Score = final[i]
		}
		m.Seats = append(m.Seats, seat)
	}
	for _, st := range rep.Ranking {
		if st.Seat >= 0 && st.Seat < n {
			m.Seats[st.Seat].Place = st.Place
		}
	}
	for _, hl := range rep.Hands {
		m.Hands = append(m.Hands, hand(hl, n))
	}
	return m
}

// hand is what a record needs of one finished hand of n seats.
func hand(hl table.HandLog, n int) stats.Hand {
	var h stats.Hand
	r := hl.Result101
	if r == nil {
		h.Winner = hl.Result.Winner
		h.Pairs = hl.Result.Winner >= 0 && hl.Result.Kind == engine.Pairs
		h.OkeyDiscard = hl.Result.Winner >= 0 && hl.Result.OkeyDiscard
		return h
	}
	h.Winner = -1
	if r.End == engine.EndFinish {
		h.Winner = r.Finisher
	}
	h.OkeyDiscard = r.JokerFinish
	h.Opened = make([]stats.Opening, n)
	for s := range h.Opened {
		if s < len(hl.Opened101) {
			switch hl.Opened101[s] {
			case engine.OpenedSets:
				h.Opened[s] = stats.OpenedSets
			case engine.OpenedDoubles:
				h.Opened[s] = stats.OpenedDoubles
			}
		}
	}
	return h
}

// Report builds the record from the files and the summary's account of
// them (players aside); it sets each file's Dup.
func Report(files []File) (stats.Record, Summary) {
	out := Summary{Read: len(files), Rating: RatingName, Interval: IntervalName}
	var played []stats.Played
	// The copy of a match that counts: the first honest file by time and
	// name, else the first unfinished one (stats.Build chooses the same).
	order := slices.Clone(files)
	slices.SortStableFunc(order, func(a, b File) int {
		if c := a.When.Compare(b.When); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	counts := map[string]string{}
	for _, st := range []stats.Status{stats.Honest, stats.Unfinished} {
		for _, f := range order {
			if f.Entry.Status == st && f.Entry.Match != nil && counts[f.Entry.Match.Config] == "" {
				counts[f.Entry.Match.Config] = f.Path
			}
		}
	}
	for i := range files {
		f := &files[i]
		e := f.Entry
		fj := FileSummary{File: f.Path, Status: string(e.Status), Reason: e.Reason}
		if e.Match != nil {
			fj.Ruleset = e.Match.Ruleset
			if c := counts[e.Match.Config]; c != f.Path {
				f.Dup, fj.Copy = c, c
				out.Duplicates++
				out.Files = append(out.Files, fj)
				continue
			}
		}
		switch e.Status {
		case stats.Honest:
			out.Kept++
		case stats.Unfinished:
			out.Unfinished++
		default:
			out.LeftOut++
		}
		out.Files = append(out.Files, fj)
		played = append(played, stats.Played{File: f.Path, When: f.When, Status: e.Status, Match: e.Match})
	}
	rec := stats.Build(played, rating.Default())
	out.Matches = rec.Matches
	return rec, out
}

// Round rounds the player's floats to 4 decimals for a summary: they are
// shown, and a figure that differs in its last bits on another machine
// (fused multiply-adds) prints the same.
func Round(p stats.Player) stats.Player {
	r := func(x float64) float64 { return math.Round(x*1e4) / 1e4 }
	p.WinShare, p.WinLow, p.WinHigh, p.Ordinal = r(p.WinShare), r(p.WinLow), r(p.WinHigh), r(p.Ordinal)
	p.Rating = rating.Rating{Mu: r(p.Rating.Mu), Sigma: r(p.Rating.Sigma)}
	p.Scores = slices.Clone(p.Scores)
	for i := range p.Scores {
		p.Scores[i].Mean = r(p.Scores[i].Mean)
	}
	p.Series = slices.Clone(p.Series)
	for i := range p.Series {
		p.Series[i].Mu, p.Series[i].Sigma = r(p.Series[i].Mu), r(p.Series[i].Sigma)
	}
	return p
}
