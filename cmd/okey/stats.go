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
	fs.Usage = func() { fmt.Fprint(stderr, helpText("stats")); printDefaults(fs) }
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
