package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/stats/collect"
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
// statsCacheFile is the cache's name in the data directory.
const statsCacheFile = collect.CacheFile

// statsJSON is okey stats --json's object; statsPlayerJSON a player in it.
type (
	statsJSON       = collect.Summary
	statsPlayerJSON = collect.PlayerSummary
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
	// The cache: none with --no-cache, or when there is no data directory
	// or no way to name this verifier.
	cachePath := ""
	if !*noCache && dir != "" {
		cachePath = filepath.Join(dir, statsCacheFile)
	}
	col, err := collect.Collect(folders, fs.NArg() == 0, dir, cachePath, collect.Options{Plain: ui.Plain})
	if err != nil {
		fe := &collect.FindError{Err: err}
		errors.As(err, &fe)
		fmt.Fprint(stderr, i18n.T("okey: %s: cannot be read: %s\n", fe.Folder, ui.Plain(fe.Err)))
		return 2
	}
	cachePath = col.CachePath
	if col.CacheBad != nil {
		fmt.Fprint(stderr, i18n.T("okey: %s: not a cache okey wrote, verifying every file again: %s\n", cachePath, ui.Plain(col.CacheBad)))
	}
	if col.CacheUnwritten != nil {
		fmt.Fprint(stderr, i18n.T("okey: the cache is not written (the next run verifies again): %s\n", ui.Plain(col.CacheUnwritten)))
	}
	rec, out := col.Record, col.Summary
	you := p2p.PublicKeyHex(dir)
	for _, p := range rec.Players {
		out.Players = append(out.Players, statsPlayerJSON{Player: collect.Round(p), You: p.Key == you})
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(out)
		return 0
	}
	collect.WriteText(stdout, out, *top, cachePath)
	return 0
}
