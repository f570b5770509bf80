package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/stats"
	"github.com/okey-game/okey/stats/collect/collecttest"
)

var updateStats = flag.Bool("update", false, "rewrite testdata/stats.golden.json from okey stats' output")

// statsFixture is the fixed set of the conformance suite's transcripts the
// golden speaks of (collecttest.Fixture).
func statsFixture(t *testing.T) string {
	return collecttest.Fixture(t, filepath.Join("..", "..", "testdata", "conformance", "transcripts"))
}

func runStatsJSON(t *testing.T, args ...string) (statsJSON, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(append([]string{"stats", "--json"}, args...), nil, &out, &errb); code != 0 {
		t.Fatalf("okey stats %v: exit %d: %s", args, code, errb.String())
	}
	var o statsJSON
	if err := json.Unmarshal(out.Bytes(), &o); err != nil {
		t.Fatalf("okey stats --json: %v\n%s", err, out.String())
	}
	return o, out.String(), errb.String()
}

// TestStatsGolden pins okey stats --json over the fixed set, then checks
// the cache: a second run verifies nothing and says the same; a changed
// file, another verifier and a damaged cache each verify again.
func TestStatsGolden(t *testing.T) {
	lane.NoRace(t)
	dir := statsFixture(t)
	data := t.TempDir()
	first, raw, _ := runStatsJSON(t, "--data", data, dir)
	golden := filepath.Join("testdata", "stats.golden.json")
	got := strings.ReplaceAll(raw, dir, "DIR")
	if *updateStats {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test -run TestStatsGolden -update ./cmd/okey/ writes it)", err)
	}
	if got != string(want) {
		t.Errorf("okey stats --json differs from %s (rerun with -update after a change to the conformance suite or the record):\n%s", golden, got)
	}
	// What the record must say, whatever the golden file says.
	status := map[string]string{}
	for _, f := range first.Files {
		status[filepath.Base(f.File)] = f.Status
		if f.Copy != "" {
			status[filepath.Base(f.File)] = "copy"
		}
	}
	for name, want := range map[string]string{
		"honest-classic-2.okey": "honest", "honest-101-partnerships-4.okey": "honest",
		"cheat-withhold.okey": "unfinished", "cheat-false-win.okey": "cheating", "bad-signature.okey": "invalid",
		"tampered-classic-3.okey": "invalid", "not-a-transcript.okey": "unreadable", "transcript": "copy",
	} {
		if status[name] != want {
			t.Errorf("%s: %q, want %q", name, status[name], want)
		}
	}
	// Eleven files, ten contents: the copy's bytes are verified once.
	if first.Read != 11 || first.Kept != 5 || first.Unfinished != 1 || first.LeftOut != 4 || first.Duplicates != 1 ||
		first.Verified != 10 || first.FromCache != 0 || first.Matches != 5 {
		t.Errorf("counts: %+v", first)
	}
	// The unfinished match's seats: unfinished, not a loss.
	for _, p := range first.Players {
		if p.Unfinished > 0 && p.Matches != 0 {
			t.Errorf("%s: %d matches beside the unfinished one (the fixture's players are one match each)", p.Name, p.Matches)
		}
	}
	// Partners: the 101 partnership's seats 0 and 2 share a result.
	var team []statsPlayerJSON
	for _, p := range first.Players {
		if len(p.Series) == 1 && p.Series[0].Match == 4 {
			team = append(team, p)
		}
	}
	if len(team) != 4 || team[0].Wins != team[1].Wins || team[0].Rating != team[1].Rating || team[2].Rating != team[3].Rating || team[0].Rating == team[2].Rating {
		t.Errorf("the 101 partnership's players: %+v", team)
	}

	cachePath := filepath.Join(data, statsCacheFile)
	if fi, err := os.Stat(cachePath); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("cache: %v %v", fi, err)
	}
	second, _, _ := runStatsJSON(t, "--data", data, dir)
	if second.Verified != 0 || second.FromCache != 11 {
		t.Errorf("second run: verified %d, from the cache %d; want 0 and 11", second.Verified, second.FromCache)
	}
	second.Verified, second.FromCache = first.Verified, first.FromCache
	a, _ := json.Marshal(first)
	b, _ := json.Marshal(second)
	if !bytes.Equal(a, b) {
		t.Errorf("the cached run says something else:\n%s\n%s", a, b)
	}
	// A file changed: only it is verified again; here a cut makes the
	// honest classic-3 match unfinished.
	p := filepath.Join(dir, "honest-classic-3.okey")
	body, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	os.WriteFile(p, body[:len(body)-10], 0o644)
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	third, _, _ := runStatsJSON(t, "--data", data, dir)
	if third.Verified != 1 || third.Kept != 4 || third.Unfinished != 2 {
		t.Errorf("after a cut: verified %d, kept %d, unfinished %d; want 1, 4, 2", third.Verified, third.Kept, third.Unfinished)
	}
	statsText(t, dir, data)
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// statsText: the text (read from the cache in data) says what was left
// out and why, fits 80 columns, and draws the series, in English and in
// Turkish.
func statsText(t *testing.T, dir, data string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run([]string{"stats", "--data", data, dir}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := strings.ReplaceAll(out.String(), dir, "DIR")
	for _, want := range []string{
		"11 files read: 4 kept (honest and finished), 2 unfinished, 4 left out; a match's copies counted once: 1",
		"verified now: 0; verdicts from the cache",
		"DIR/tampered-classic-3.okey: left out: damaged or altered, no one named",
		"DIR/bad-signature.okey: left out: damaged or altered, no one named",
		"DIR/cheat-false-win.okey: left out: a seat is named on its own signed messages: seat 1 (seat1) broke false-win",
		"DIR/cheat-withhold.okey: unfinished, honest so far: counted as unfinished for its players, not as a loss",
		"  DIR/honest-classic-2.okey: counted once; its copies: 1",
		"DIR/not-a-transcript.okey: left out: unreadable",
		"shown only, never part of a verdict",
		"Win share: 95% Wilson interval.",
		"Okey 101: rounds 3,",
		"  rating                ▁",
		"  score   classic       ",
		"... and ",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q in:\n%s", want, s)
		}
	}
	inRecord := s[strings.Index(s, "matches. Ratings"):]
	for _, line := range strings.Split(inRecord, "\n") {
		if n := len([]rune(line)); n > 80 {
			t.Errorf("a line of %d columns: %q", n, line)
		}
	}
	out.Reset()
	if code := run([]string{"--lang", "tr", "stats", "--data", data, dir}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "yenilgi değil") {
		t.Errorf("Turkish: exit %d:\n%s", code, out.String())
	}
}

// TestStatsCache: with no folder given okey stats reads the data directory;
// another verifier's cache and a damaged cache are not used, and --no-cache
// leaves the cache alone.
func TestStatsCache(t *testing.T) {
	data := t.TempDir()
	src := filepath.Join("..", "..", "testdata", "conformance", "transcripts")
	for _, name := range []string{"honest-classic-2.okey", "not-a-transcript.okey"} {
		p := filepath.Join(data, "matches", strings.TrimSuffix(name, ".okey"), "transcript")
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, must(os.ReadFile(filepath.Join(src, name))), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cachePath := filepath.Join(data, statsCacheFile)
	if o, _, _ := runStatsJSON(t, "--data", data); o.Read != 2 || o.Kept != 1 || o.Verified != 2 {
		t.Fatalf("the data directory: %+v", o)
	}
	// Another verifier's cache is not used.
	c, err := stats.DecodeCache(must(os.ReadFile(cachePath)))
	if err != nil {
		t.Fatal(err)
	}
	c.Verifier = "okey-exe-sha256:another build"
	os.WriteFile(cachePath, c.Encode(), 0o600)
	if o, _, _ := runStatsJSON(t, "--data", data); o.Verified != 2 {
		t.Errorf("another verifier's cache: verified %d, want 2", o.Verified)
	}
	// A damaged cache is said and not used.
	os.WriteFile(cachePath, []byte(`{"okey_stats_cache":1,"verifier":`), 0o600)
	o, _, errText := runStatsJSON(t, "--data", data)
	if o.Verified != 2 || !strings.Contains(errText, "not a cache okey wrote") {
		t.Errorf("a damaged cache: verified %d; stderr %q", o.Verified, errText)
	}
	// --no-cache verifies all and leaves the cache as it is.
	before := must(os.ReadFile(cachePath))
	if o, _, _ := runStatsJSON(t, "--no-cache", "--data", data); o.Verified != 2 || o.FromCache != 0 {
		t.Errorf("--no-cache: %+v", o)
	}
	if !bytes.Equal(before, must(os.ReadFile(cachePath))) {
		t.Error("--no-cache changed the cache")
	}
}

// TestStatsUsage: bad usage exits 2 and says why; -h shows the cache's
// rule.
func TestStatsUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"stats", "--top", "0", t.TempDir()}, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "okey: --top 0") {
		t.Errorf("--top 0: exit %d, %q", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"stats", "--no-cache", filepath.Join(t.TempDir(), "none")}, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "cannot be read") {
		t.Errorf("a missing folder: exit %d, %q", code, errb.String())
	}
	out.Reset()
	if code := run([]string{"stats", "-h"}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "a\nnew okey (another build, so another verifier) verifies every file again") {
		t.Errorf("-h: exit %d:\n%s", code, out.String())
	}
	// An empty folder, and a data directory not made yet: no record, exit 0.
	for _, args := range [][]string{{"--no-cache", t.TempDir()}, {"--data", filepath.Join(t.TempDir(), "none")}} {
		out.Reset()
		if code := run(append([]string{"stats"}, args...), nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "no record yet") {
			t.Errorf("%v: exit %d:\n%s", args, code, out.String())
		}
	}
}

// TestStatsSimKeys: okey sim --keys seats the same players in every match,
// so okey stats counts both matches for each of them, rated in turn.
func TestStatsSimKeys(t *testing.T) {
	lane.NoRace(t) // simulated matches: cmd/okey starts no goroutine
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"sim", "--games", "2", "--players", "2", "--preset", "classic:points=2", "--keys", "5", "--out", dir}, nil, &out, &errb); code != 0 {
		t.Fatalf("sim: exit %d: %s", code, errb.String())
	}
	o, _, _ := runStatsJSON(t, "--no-cache", dir)
	if o.Kept != 2 || o.Matches != 2 || len(o.Players) != 2 {
		t.Fatalf("kept %d, matches %d, players %d; want 2, 2, 2", o.Kept, o.Matches, len(o.Players))
	}
	for _, p := range o.Players {
		if p.Matches != 2 || len(p.Series) != 2 || p.Series[0].Match != 0 || p.Series[1].Match != 1 {
			t.Errorf("%s: %d matches, series %+v", p.Name, p.Matches, p.Series)
		}
	}
	if w := o.Players[0].Wins + o.Players[1].Wins; w < 2 {
		t.Errorf("%d wins in two matches", w)
	}
}

// TestStatsOneMatchCopies (issue 37, 13): one match kept in three places
// says "1 match", and its two copies take one line, in English and in
// Turkish; in Turkish the preset's name and the rating's decimals too
// (12).
func TestStatsOneMatchCopies(t *testing.T) {
	t.Cleanup(func() { i18n.Set(i18n.English) }) // --lang tr is process-wide
	dir := t.TempDir()
	body := must(os.ReadFile(filepath.Join("..", "..", "testdata", "conformance", "transcripts", "honest-classic-2.okey")))
	for _, name := range []string{"a", "b", "c"} {
		p := filepath.Join(dir, name, "transcript")
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, body, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, lang := range []string{"en", "tr"} {
		var out, errb bytes.Buffer
		if code := run([]string{"--lang", lang, "stats", "--no-cache", dir}, nil, &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		s := out.String()
		if n := strings.Count(s, filepath.Join(dir, "a", "transcript")); n != 1 {
			t.Errorf("%s: the kept file named %d times, want once (one line for its copies):\n%s", lang, n, s)
		}
		for _, copyName := range []string{"b", "c"} {
			if strings.Contains(s, filepath.Join(dir, copyName, "transcript")) {
				t.Errorf("%s: the copy %s has a line of its own:\n%s", lang, copyName, s)
			}
		}
		want := map[string][]string{
			"en": {"a match's copies counted once: 2\n", "  " + filepath.Join(dir, "a", "transcript") + ": counted once; its copies: 2\n", "\n1 match. Ratings:"},
			"tr": {"\n1 maç. Dereceler:", "ortalama son puan: Klasik 2,0 (1)", "puan    Klasik ", "25,0 → 27,6", "  " + filepath.Join(dir, "a", "transcript") + ": bir kez sayıldı; kopyaları: 2\n"},
		}[lang]
		for _, w := range want {
			if !strings.Contains(s, w) {
				t.Errorf("%s: no %q in:\n%s", lang, w, s)
			}
		}
		// (issue 37, 12) In Turkish the preset is named in Turkish, and
		// the rating's figures take one decimal mark.
		if lang == "tr" && (strings.Contains(s, "classic") || strings.Contains(s, "25.0")) {
			t.Errorf("tr: an English preset name or decimal point:\n%s", s)
		}
	}
}
