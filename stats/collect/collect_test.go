package collect

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/okey-game/okey/stats"
	"github.com/okey-game/okey/stats/collect/collecttest"
	"github.com/okey-game/okey/ui"
)

// fixture is the set cmd/okey's TestStatsGolden reads (collecttest.Fixture).
func fixture(t *testing.T) string {
	return collecttest.Fixture(t, filepath.Join("..", "..", "testdata", "conformance", "transcripts"))
}

// summary runs the pipeline over dir as okey stats --json does.
func summary(t *testing.T, dir string, cache *stats.Cache) Summary {
	t.Helper()
	paths, err := Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	files, verified, hits := Verify(paths, cache, Options{Plain: ui.Plain}) // as okey stats words its reasons
	rec, out := Report(files)
	out.Verified, out.FromCache = verified, hits
	for _, p := range rec.Players {
		out.Players = append(out.Players, PlayerSummary{Player: Round(p)})
	}
	return out
}

// TestGolden: the pipeline's summary of the fixed set is okey stats
// --json's golden, byte for byte.
func TestGolden(t *testing.T) {
	dir := fixture(t)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(summary(t, dir, nil)); err != nil {
		t.Fatal(err)
	}
	got := strings.ReplaceAll(b.String(), dir, "DIR")
	want, err := os.ReadFile(filepath.Join("..", "..", "cmd", "okey", "testdata", "stats.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the summary differs from cmd/okey/testdata/stats.golden.json:\n%s", got)
	}
}

// TestCache: a second run with the cache verifies nothing and says the
// same; a cache of another verifier is not used; a damaged one is refused.
func TestCache(t *testing.T) {
	dir := fixture(t)
	cache := &stats.Cache{Verifier: "v", Entries: map[string]stats.Entry{}}
	first := summary(t, dir, cache)
	if first.Verified != 10 || first.FromCache != 0 || len(cache.Entries) != 10 {
		t.Fatalf("first run: verified %d, from cache %d, cached %d", first.Verified, first.FromCache, len(cache.Entries))
	}
	second := summary(t, dir, cache)
	if second.Verified != 0 || second.FromCache != 11 {
		t.Fatalf("second run: verified %d, from cache %d", second.Verified, second.FromCache)
	}
	second.Verified, second.FromCache = first.Verified, first.FromCache
	a, _ := json.Marshal(first)
	b, _ := json.Marshal(second)
	if !bytes.Equal(a, b) {
		t.Errorf("the cached run says otherwise:\n%s\n%s", a, b)
	}
	path := filepath.Join(t.TempDir(), CacheFile)
	if err := os.WriteFile(path, cache.Encode(), 0o600); err != nil {
		t.Fatal(err)
	}
	if c, err := LoadCache(path, "v"); err != nil || len(c.Entries) != 10 {
		t.Fatalf("LoadCache: %v, %d entries", err, len(c.Entries))
	}
	if c, err := LoadCache(path, "other"); err != nil || len(c.Entries) != 0 {
		t.Fatalf("another verifier's cache: %v, %d entries", err, len(c.Entries))
	}
	if err := os.WriteFile(path, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if c, err := LoadCache(path, "v"); err == nil || len(c.Entries) != 0 {
		t.Fatalf("a damaged cache: %v, %d entries", err, len(c.Entries))
	}
	if Prune(cache, nil) {
		t.Error("Prune dropped verdicts of a cache within its bound")
	}
}
