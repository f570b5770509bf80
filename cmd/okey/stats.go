package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
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
	"github.com/okey-game/okey/internal/atomicfile"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/rating"
	"github.com/okey-game/okey/record"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
)

func init() {
	register(command{name: "stats", summary: i18n.Mark("each player's record and rating, from the matches that verify"), run: runStats})
}

const statsUsage = `usage: okey stats [--json] [--data DIR] [--no-cache] [--top N] [FOLDER...]

Reads every transcript in the folders (default: the data directory, where
okey play and okey bot keep their matches; files named transcript or
*.okey, in subfolders too), verifies each as okey verify does, and keeps
only the matches that verify honest and finished. It says how many files it
read, kept and left out, and why: a file that is damaged or altered, or in
which a seat is named on its own signed messages, is left out; an
unfinished match is counted as unfinished for its players, never as a loss.
Two copies of one match count once.

Per player (display name and the first 8 hex digits of the identity key):
matches, wins (first places; in partnerships the team's place, for both
partners), the win share with its 95 per cent Wilson score interval, the mean
final score per preset, hands won by kind (groups, seven pairs, with an okey
discard), Okey 101 openings (sets or doubles), and a rating: the Weng-Lin
Plackett-Luce model (OpenSkill's defaults: mu 25, sigma 25/3), a partnership
rated as one team, the matches taken in the order their files were last
written. The rating and the score over the matches are drawn as sparklines;
--json gives the same figures and series. Ratings are only shown: they are
never part of a verdict or of a tournament's standings.

The cache: each file's verdict is kept in DIR/stats-cache.json under the
SHA-256 of the file's bytes, with the SHA-256 of the okey program that
verified it. A file that changes has another hash and is verified again; a
new okey (another build, so another verifier) verifies every file again.
The cache is written atomically; --no-cache verifies everything and leaves
the cache alone.

Exit status: 0 the record is shown (files left out are part of it); 2 bad
usage, or a folder that cannot be read.
`

// statsCacheFile is the verification cache, in the data directory.
const statsCacheFile = "stats-cache.json"

// maxCacheEntries bounds the cache: past it, the verdicts of files not
// read in this run are dropped. maxCacheFile bounds what is read of it.
const (
	maxCacheEntries = 50000
	maxCacheFile    = 256 << 20
)

// statsWidth is the width of a sparkline: with its labels (7 and 13
// columns) and its range it fits 80 columns.
const statsWidth = 40

type statsFile struct {
	path  string
	when  time.Time
	hash  string // hex SHA-256 of the bytes; "" when unreadable
	entry record.Entry
	dup   string // the file holding the copy of this match that counts
}

type statsJSON struct {
	Read       int               `json:"read"`
	Kept       int               `json:"kept"`
	Unfinished int               `json:"unfinished"`
	LeftOut    int               `json:"left_out"`
	Duplicates int               `json:"duplicates"`
	Verified   int               `json:"verified"`   // verified in this run
	FromCache  int               `json:"from_cache"` // files whose verdict was in the cache
	Files      []statsFileJSON   `json:"files"`
	Rating     string            `json:"rating"`
	Interval   string            `json:"interval"`
	Matches    int               `json:"matches"`
	Players    []statsPlayerJSON `json:"players"`
}

type statsFileJSON struct {
	File    string `json:"file"`
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Copy    string `json:"copy_of,omitempty"`
	Ruleset string `json:"ruleset,omitempty"`
}

type statsPlayerJSON struct {
	record.Player
	You bool `json:"you,omitempty"`
}

const (
	ratingName   = "Weng-Lin Plackett-Luce (OpenSkill defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300, kappa 0.0001)"
	intervalName = "Wilson score interval, 95%"
)

func runStats(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("stats", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, i18n.T(statsUsage)); printDefaults(fs) }
	asJSON := fs.Bool("json", false, i18n.T("one JSON object: the files, every player's figures and series"))
	data := fs.String("data", "", i18n.T("data directory: its matches, and the cache (default: the user's config directory)"))
	noCache := fs.Bool("no-cache", false, i18n.T("verify every file, neither reading nor writing the cache"))
	top := fs.Int("top", 12, i18n.T("players shown, the most matches first (--json lists all)"))
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *top < 1 {
		fmt.Fprint(stderr, i18n.T("okey: --top %d: want 1 or more players\n", *top))
		return 2
	}
	dir := *data
	if dir == "" {
		d, err := p2p.DefaultConfigDir()
		if err != nil && fs.NArg() == 0 {
			fmt.Fprint(stderr, i18n.T("okey: no data directory (use --data): %s\n", ui.Plain(err)))
			return 2
		}
		dir = d
	}
	folders := fs.Args()
	if len(folders) == 0 {
		folders = []string{dir}
	}
	var paths []string
	for _, f := range folders {
		found, err := findTranscripts(f)
		if errors.Is(err, os.ErrNotExist) && fs.NArg() == 0 {
			continue // no data directory yet: no matches
		}
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			fmt.Fprint(stderr, i18n.T("okey: %s: cannot be read: %s\n", f, ui.Plain(err)))
			return 2
		}
		paths = append(paths, found...)
	}
	// The cache: none with --no-cache, or when there is no data directory
	// or no way to name this verifier.
	cachePath := ""
	var cache *record.Cache
	if !*noCache && dir != "" {
		if v, err := verifierID(); err == nil {
			cachePath = filepath.Join(dir, statsCacheFile)
			cache = loadStatsCache(cachePath, v, stderr)
		}
	}
	files, verified, hits := statsVerify(paths, cache)
	dirty := verified > 0
	if cache != nil && len(cache.Entries) > maxCacheEntries {
		// Too many: keep the verdicts of the files read now.
		seen := map[string]bool{}
		for _, f := range files {
			seen[f.hash] = true
		}
		maps.DeleteFunc(cache.Entries, func(h string, _ record.Entry) bool { return !seen[h] })
		dirty = true
	}
	if cache != nil && dirty {
		err := os.MkdirAll(dir, 0o700)
		if err == nil {
			err = atomicfile.Write(cachePath, cache.Encode())
		}
		if err != nil {
			fmt.Fprint(stderr, i18n.T("okey: the cache is not written (the next run verifies again): %s\n", ui.Plain(err)))
		}
	}
	rec, out := statsReport(files)
	out.Verified, out.FromCache = verified, hits
	you := ownKey(dir)
	for _, p := range rec.Players {
		out.Players = append(out.Players, statsPlayerJSON{Player: roundPlayer(p), You: p.Key == you})
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(out)
		return 0
	}
	printStats(stdout, out, *top, cachePath)
	return 0
}

// findTranscripts lists the transcript files under root: regular files
// named transcript or ending in .okey, sorted. A root that is a file is
// taken as it is.
func findTranscripts(root string) ([]string, error) {
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

// verifierID names this verifier: the SHA-256 of the running program. Any
// other build of okey is another verifier, whose verdicts are not reused.
func verifierID() (string, error) {
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

// loadStatsCache reads the cache for verifier v: an empty one when there is
// none, when it was made by another verifier, or when it does not decode
// (said on stderr: every file is then verified again).
func loadStatsCache(path, v string, stderr io.Writer) *record.Cache {
	fresh := &record.Cache{Verifier: v, Entries: map[string]record.Entry{}}
	f, err := os.Open(path)
	if err != nil {
		return fresh
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxCacheFile+1))
	if err != nil {
		return fresh
	}
	if len(b) > maxCacheFile {
		fmt.Fprint(stderr, i18n.T("okey: %s: not a cache okey wrote, verifying every file again: %s\n", path, "too large"))
		return fresh
	}
	c, err := record.DecodeCache(b)
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: %s: not a cache okey wrote, verifying every file again: %s\n", path, ui.Plain(err)))
		return fresh
	}
	if c.Verifier != v {
		return fresh // another verifier: verify again
	}
	return c
}

// statsVerify hashes each file and verifies, once each, the contents the
// cache does not know (two files with the same bytes are verified once),
// on every core. It adds what it verified to the cache and returns the
// files in the order given, how many contents it verified, and how many
// files' verdicts it found in the cache.
func statsVerify(paths []string, cache *record.Cache) (files []statsFile, verified, hits int) {
	files = make([]statsFile, len(paths))
	parallel(len(paths), func(i int) {
		f := &files[i]
		f.path = paths[i]
		hash, when, err := hashStatsFile(f.path)
		f.when = when
		if err != nil {
			f.entry = record.Entry{Status: record.Unreadable, Reason: err.Error()}
			return
		}
		f.hash = hash
	})
	// The contents to verify: each unknown hash once, from its first file
	// (todo[j] is that file; first maps the hash to j).
	var todo []int
	first := map[string]int{}
	for i, f := range files {
		if f.hash == "" {
			continue
		}
		if cache != nil {
			if e, ok := cache.Entries[f.hash]; ok {
				files[i].entry = e
				hits++
				continue
			}
		}
		if _, ok := first[f.hash]; !ok {
			first[f.hash] = len(todo)
			todo = append(todo, i)
		}
	}
	entries := make([]record.Entry, len(todo))
	transient := make([]bool, len(todo)) // a read error: not the content's verdict, not cached
	parallel(len(todo), func(k int) {
		f := files[todo[k]]
		data, _, err := readStatsFile(f.path)
		if err == nil && hashOf(data) != f.hash {
			err = userErr(i18n.Mark("cannot be read: %s"), "the file changed while it was read")
		}
		if err != nil {
			entries[k], transient[k] = record.Entry{Status: record.Unreadable, Reason: err.Error()}, true
			return
		}
		entries[k] = verifyForStats(data)
	})
	for i, f := range files {
		if f.hash == "" {
			continue
		}
		if j, ok := first[f.hash]; ok {
			e := entries[j]
			files[i].entry = e
			if cache != nil && !transient[j] {
				cache.Entries[f.hash] = e
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

// hashStatsFile returns the hex SHA-256 of a file's bytes, streamed (a
// run that finds every verdict in the cache reads each file once and keeps
// none of it), and the time it was last written.
func hashStatsFile(path string) (string, time.Time, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", time.Time{}, userErr(i18n.Mark("cannot be read: %s"), ui.Plain(errors.Unwrap(err)))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", time.Time{}, userErr(i18n.Mark("cannot be read: %s"), ui.Plain(errors.Unwrap(err)))
	}
	if fi.Size() > maxTranscriptFile {
		return "", fi.ModTime(), userErr(i18n.Mark("not an okey transcript (%d bytes, more than any match)"), fi.Size())
	}
	h := sha256.New()
	buf := hashBufs.Get().(*[]byte)
	defer hashBufs.Put(buf)
	if _, err := io.CopyBuffer(h, io.LimitReader(f, maxTranscriptFile+1), *buf); err != nil {
		return "", fi.ModTime(), userErr(i18n.Mark("cannot be read: %s"), ui.Plain(errors.Unwrap(err)))
	}
	return hex.EncodeToString(h.Sum(nil)), fi.ModTime(), nil
}

var hashBufs = sync.Pool{New: func() any { b := make([]byte, 1<<20); return &b }}

func readStatsFile(path string) ([]byte, time.Time, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, time.Time{}, userErr(i18n.Mark("cannot be read: %s"), ui.Plain(errors.Unwrap(err)))
	}
	if fi.Size() > maxTranscriptFile {
		return nil, fi.ModTime(), userErr(i18n.Mark("not an okey transcript (%d bytes, more than any match)"), fi.Size())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fi.ModTime(), userErr(i18n.Mark("cannot be read: %s"), ui.Plain(errors.Unwrap(err)))
	}
	return data, fi.ModTime(), nil
}

// verifyForStats verifies a transcript's bytes and summarises the match.
func verifyForStats(data []byte) record.Entry {
	t, _, err := parseTranscript(data)
	if err != nil {
		return record.Entry{Status: record.Unreadable, Reason: err.Error()}
	}
	rep := table.Verify(t)
	switch rep.Status() {
	case table.StatusHonest:
		return record.Entry{Status: record.Honest, Match: summarise(t, rep)}
	case table.StatusUnfinished:
		return record.Entry{Status: record.Unfinished, Match: summarise(t, rep)}
	case table.StatusCheating:
		v := rep.Violation
		name := ""
		if v.Seat >= 0 && v.Seat < len(rep.Seats) {
			name = rep.Seats[v.Seat]
		}
		return record.Entry{Status: record.Cheating, Reason: fmt.Sprintf("seat %d (%s) broke %s at message %d: %s", v.Seat, name, v.Rule, v.Step, ui.Plain(v.Err))}
	}
	reason := "the transcript does not hold"
	if rep.Invalid != nil {
		reason = ui.Plain(rep.Invalid)
	}
	return record.Entry{Status: record.Invalid, Reason: reason}
}

// summarise is what a record needs of a verified match: the seats by
// identity key, their teams, final scores and places (none when
// unfinished), and each finished hand's winner and kind.
func summarise(t *table.Transcript, rep *table.Report) *record.Match {
	h := t.Config.Hash()
	m := &record.Match{Config: hex.EncodeToString(h[:]), Ruleset: t.Config.Ruleset}
	n := len(t.Config.Seats)
	teams := t.Config.Rules().Teams(n)
	var final []int
	if k := len(rep.Hands); k > 0 {
		final = rep.Hands[k-1].Scores
	}
	for i, s := range t.Config.Seats {
		seat := record.Seat{Key: hex.EncodeToString(s.Key), Name: s.Name, Team: i}
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
		var hand record.Hand
		if r := hl.Result101; r != nil {
			hand.Winner = -1
			if r.End == engine.EndFinish {
				hand.Winner = r.Finisher
			}
			hand.OkeyDiscard = r.JokerFinish
			hand.Opened = make([]record.Opening, n)
			for s := range hand.Opened {
				if s < len(hl.Opened101) {
					switch hl.Opened101[s] {
					case engine.OpenedSets:
						hand.Opened[s] = record.OpenedSets
					case engine.OpenedDoubles:
						hand.Opened[s] = record.OpenedDoubles
					}
				}
			}
		} else {
			hand.Winner = hl.Result.Winner
			hand.Pairs = hl.Result.Winner >= 0 && hl.Result.Kind == engine.Pairs
			hand.OkeyDiscard = hl.Result.Winner >= 0 && hl.Result.OkeyDiscard
		}
		m.Hands = append(m.Hands, hand)
	}
	return m
}

// statsReport builds the record from the files and the JSON's account of
// them (players aside).
func statsReport(files []statsFile) (record.Record, statsJSON) {
	out := statsJSON{Read: len(files), Rating: ratingName, Interval: intervalName}
	var played []record.Played
	// The copy of a match that counts: the first honest file by time and
	// name, else the first unfinished one (record.Build chooses the same).
	order := slices.Clone(files)
	slices.SortStableFunc(order, func(a, b statsFile) int {
		if c := a.when.Compare(b.when); c != 0 {
			return c
		}
		return strings.Compare(a.path, b.path)
	})
	counts := map[string]string{}
	for _, st := range []record.Status{record.Honest, record.Unfinished} {
		for _, f := range order {
			if f.entry.Status == st && f.entry.Match != nil && counts[f.entry.Match.Config] == "" {
				counts[f.entry.Match.Config] = f.path
			}
		}
	}
	for i := range files {
		f := &files[i]
		e := f.entry
		fj := statsFileJSON{File: f.path, Status: string(e.Status), Reason: e.Reason}
		if e.Match != nil {
			fj.Ruleset = e.Match.Ruleset
			if c := counts[e.Match.Config]; c != f.path {
				f.dup, fj.Copy = c, c
				out.Duplicates++
				out.Files = append(out.Files, fj)
				continue
			}
		}
		switch e.Status {
		case record.Honest:
			out.Kept++
		case record.Unfinished:
			out.Unfinished++
		default:
			out.LeftOut++
		}
		out.Files = append(out.Files, fj)
		played = append(played, record.Played{File: f.path, When: f.when, Status: e.Status, Match: e.Match})
	}
	rec := record.Build(played, rating.Default())
	out.Matches = rec.Matches
	return rec, out
}

// ownKey is the hex public key of the data directory's identity, "" when
// it has none (it is never created here).
func ownKey(dir string) string {
	if dir == "" {
		return ""
	}
	if _, err := os.Stat(filepath.Join(dir, p2p.IdentityFile)); err != nil {
		return ""
	}
	k, err := p2p.LoadOrCreateIdentity(dir)
	if err != nil {
		return ""
	}
	raw, err := k.GetPublic().Raw()
	if err != nil {
		return ""
	}
	return hex.EncodeToString(raw)
}

// roundPlayer rounds the player's floats to 4 decimals for --json: they
// are shown, and a figure that differs in its last bits on another
// machine (fused multiply-adds) prints the same.
func roundPlayer(p record.Player) record.Player {
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

// printStats writes the record for a person.
func printStats(w io.Writer, o statsJSON, top int, cachePath string) {
	fmt.Fprint(w, i18n.T("%d files read: %d kept (honest and finished), %d unfinished, %d left out; a match's copies counted once: %d\n",
		o.Read, o.Kept, o.Unfinished, o.LeftOut, o.Duplicates))
	if cachePath != "" {
		fmt.Fprint(w, i18n.T("verified now: %d; verdicts from the cache (%s): %d\n", o.Verified, cachePath, o.FromCache))
	} else {
		fmt.Fprint(w, i18n.T("verified now: %d (no cache)\n", o.Verified))
	}
	// The copies of a match take one line for the match, however many
	// there are (--json lists each).
	copies := map[string]int{}
	for _, f := range o.Files {
		if f.Copy != "" {
			copies[f.Copy]++
		}
	}
	for _, f := range o.Files {
		switch {
		case f.Copy != "":
			if n := copies[f.Copy]; n > 0 {
				fmt.Fprint(w, i18n.T("  %s: counted once; its copies: %d\n", f.Copy, n))
				copies[f.Copy] = 0
			}
		case f.Status == string(record.Unfinished):
			fmt.Fprint(w, i18n.T("  %s: unfinished, honest so far: counted as unfinished for its players, not as a loss\n", f.File))
		case f.Status == string(record.Cheating):
			fmt.Fprint(w, i18n.T("  %s: left out: a seat is named on its own signed messages: %s\n", f.File, f.Reason))
		case f.Status == string(record.Invalid):
			fmt.Fprint(w, i18n.T("  %s: left out: damaged or altered, no one named: %s\n", f.File, f.Reason))
		case f.Status == string(record.Unreadable):
			fmt.Fprint(w, i18n.T("  %s: left out: unreadable: %s\n", f.File, f.Reason))
		}
	}
	fmt.Fprintln(w)
	if o.Matches == 0 && len(o.Players) == 0 {
		fmt.Fprintln(w, i18n.T("no finished match verifies: no record yet"))
		return
	}
	fmt.Fprint(w, i18n.T("%d matches. Ratings: Weng-Lin Plackett-Luce, OpenSkill's defaults (--json says\nwhich), shown only, never part of a verdict. Win share: 95%% Wilson interval.\n", o.Matches))
	for i, p := range o.Players {
		if i == top {
			fmt.Fprint(w, i18n.T("\n... and %d more players (--top, or --json for all)\n", len(o.Players)-top))
			break
		}
		fmt.Fprintln(w)
		printPlayer(w, p)
	}
}

func printPlayer(w io.Writer, p statsPlayerJSON) {
	head := fmt.Sprintf("%s · %s", p.Name, p.Short)
	if p.You {
		head += " " + i18n.T("(you)")
	}
	fmt.Fprintln(w, head)
	fmt.Fprint(w, i18n.T("  matches %d, wins %d (%.0f%%, 95%%: %.0f-%.0f%%), unfinished %d\n",
		p.Matches, p.Wins, 100*p.WinShare, 100*p.WinLow, 100*p.WinHigh, p.Unfinished))
	if p.Matches == 0 {
		return
	}
	fmt.Fprint(w, i18n.T("  rating %.1f ± %.1f (mu ± sigma; mu - 3 sigma %.1f)\n", p.Rating.Mu, p.Rating.Sigma, p.Ordinal))
	var sc []string
	for _, s := range p.Scores {
		sc = append(sc, i18n.T("%s %.1f (%d)", ui.PresetName(s.Preset), s.Mean, s.Matches))
	}
	fmt.Fprint(w, i18n.T("  mean final score: %s\n", strings.Join(sc, ", ")))
	if p.Hands > 0 {
		fmt.Fprint(w, i18n.T("  hands won %d of %d: groups %d, seven pairs %d; with an okey discard %d\n",
			p.HandsWon, p.Hands, p.Groups, p.SevenPairs, p.OkeyDiscard))
	}
	if p.Rounds101 > 0 {
		fmt.Fprint(w, i18n.T("  Okey 101: rounds %d, finished %d (with an okey %d); opened: sets %d, doubles %d\n",
			p.Rounds101, p.Finished101, p.OkeyFinish, p.OpenedSets, p.OpenedPairs))
	}
	mus := []float64{rating.Default().Mu} // from a new player's rating
	for _, pt := range p.Series {
		mus = append(mus, pt.Mu)
	}
	fmt.Fprintf(w, "  %-7s %-13s %s %s\n", i18n.T("rating"), "", record.Sparkline(mus, statsWidth), i18n.T("%.1f → %.1f", mus[0], mus[len(mus)-1]))
	// The score, one line per preset: scores of different presets do not
	// compare.
	for _, sc := range p.Scores {
		var scores []float64
		for _, pt := range p.Series {
			if pt.Preset == sc.Preset {
				scores = append(scores, float64(pt.Score))
			}
		}
		fmt.Fprintf(w, "  %-7s %-13s %s %s\n", i18n.T("score"), ui.PresetName(sc.Preset), record.Sparkline(scores, statsWidth),
			i18n.T("%.0f to %.0f", slices.Min(scores), slices.Max(scores)))
	}
}
