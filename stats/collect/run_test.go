package collect

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/okey-game/okey/ui"
)

// TestCollect: the first run verifies every file and writes the cache
// (0700 directory), the second takes every verdict from it, with the same
// summary; a folder that does not exist is a FindError unless missingOK.
func TestCollect(t *testing.T) {
	dir := fixture(t)
	data := filepath.Join(t.TempDir(), "data")
	cache := filepath.Join(data, CacheFile)
	first, err := Collect([]string{dir}, false, data, cache, Options{Plain: ui.Plain})
	if err != nil {
		t.Fatal(err)
	}
	if first.CacheBad != nil || first.CacheUnwritten != nil || first.CachePath != cache || first.Summary.Verified == 0 || first.Summary.FromCache != 0 {
		t.Fatalf("first run: %+v", first)
	}
	if st, err := os.Stat(data); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("the cache's directory: %v %v", st, err)
	}
	second, err := Collect([]string{dir}, false, data, cache, Options{Plain: ui.Plain})
	if err != nil {
		t.Fatal(err)
	}
	if second.Summary.Verified != 0 || second.Summary.FromCache == 0 {
		t.Fatalf("second run: verified %d, from the cache %d", second.Summary.Verified, second.Summary.FromCache)
	}
	a, b := first.Summary, second.Summary
	a.Verified, a.FromCache, b.Verified, b.FromCache = 0, 0, 0, 0
	if !reflect.DeepEqual(a, b) || len(first.Record.Players) == 0 {
		t.Fatal("the cache's verdicts sum up differently")
	}
	if err := os.WriteFile(cache, []byte("not a cache"), 0o600); err != nil {
		t.Fatal(err)
	}
	third, err := Collect([]string{dir}, false, data, cache, Options{Plain: ui.Plain})
	if err != nil || third.CacheBad == nil || third.Summary.Verified != first.Summary.Verified {
		t.Fatalf("a damaged cache: %v, %+v", err, third)
	}
	gone := filepath.Join(t.TempDir(), "gone")
	if _, err := Collect([]string{gone}, false, "", "", Options{}); !errors.As(err, new(*FindError)) {
		t.Fatalf("a missing folder: %v, want a FindError", err)
	}
	if c, err := Collect([]string{gone}, true, "", "", Options{}); err != nil || c.Summary.Read != 0 || c.CachePath != "" {
		t.Fatalf("a missing data directory: %v %+v", err, c)
	}
}
