package stats

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func sampleCache() *Cache {
	return &Cache{Verifier: "v1", Entries: map[string]Entry{
		cfg(10): {Status: Honest, Match: &Match{Config: cfg(1), Ruleset: "101:partnerships", Seats: []Seat{
			{Key: key('a'), Name: "ada", Team: 0, Score: -40, Place: 1}, {Key: key('b'), Name: "bo", Team: 1, Score: 90, Place: 3},
			{Key: key('c'), Name: "cem", Team: 0, Score: 20, Place: 1}, {Key: key('d'), Name: "dd", Team: 1, Score: 7, Place: 3}},
			Hands: []Hand{{Winner: 0, OkeyDiscard: true, Opened: []Opening{OpenedSets, NotOpened, OpenedDoubles, OpenedSets}}, {Winner: -1}}}},
		cfg(11): {Status: Unfinished, Match: &Match{Config: cfg(2), Ruleset: "classic", Seats: []Seat{
			{Key: key('a'), Name: "ada", Team: 0}, {Key: key('b'), Name: "bo", Team: 1}}}},
		cfg(12): {Status: Invalid, Reason: "record 3: bad signature"},
		cfg(13): {Status: Cheating, Reason: "seat 1 broke rules"},
		cfg(14): {Status: Unreadable, Reason: "not an okey transcript"},
	}}
}

func TestCacheRoundTrip(t *testing.T) {
	c := sampleCache()
	b := c.Encode()
	got, err := DecodeCache(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, c) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, c)
	}
	if !bytes.Equal(got.Encode(), b) {
		t.Error("encoding is not canonical")
	}
	if !strings.Contains(string(b), `"opened":["sets","none","doubles","sets"]`) {
		t.Errorf("openings are not named: %s", b)
	}
}

// TestCacheRejects: each broken field makes the whole cache an error.
func TestCacheRejects(t *testing.T) {
	good := string(sampleCache().Encode())
	for _, c := range []struct{ name, from, to string }{
		{"format", `"okey_stats_cache":1`, `"okey_stats_cache":2`},
		{"no verifier", `"verifier":"v1"`, `"verifier":""`},
		{"hash", `"` + cfg(12) + `"`, `"` + strings.ToUpper(cfg(12)) + `"`},
		{"short hash", `"` + cfg(12) + `"`, `"abcd"`},
		{"status", `"status":"invalid"`, `"status":"fine"`},
		{"honest with no match", `"status":"unfinished","match"`, `"status":"honest","mat"`},
		{"left out with a match", `"status":"unfinished"`, `"status":"cheating"`},
		{"place of an honest match", `"place":3`, `"place":5`},
		{"place of an unfinished match", `"team":1,"score":0,"place":0`, `"team":1,"score":0,"place":1`},
		{"key", `"key":"` + key('b') + `"`, `"key":"zz"`},
		{"seat twice", `"key":"` + key('d') + `"`, `"key":"` + key('a') + `"`},
		{"winner", `"winner":-1`, `"winner":4`},
		{"opening", `"doubles"`, `"triples"`},
		{"unknown field", `"okey_stats_cache":1`, `"okey_stats_cache":1,"x":1`},
		{"trailing", "}\n", "}{}"},
	} {
		bad := strings.Replace(good, c.from, c.to, 1)
		if bad == good {
			t.Fatalf("%s: %q not in the cache", c.name, c.from)
		}
		got, err := DecodeCache([]byte(bad))
		if !errors.Is(err, ErrCache) || got != nil {
			t.Errorf("%s: got %v, %v", c.name, got, err)
		}
	}
}

// FuzzDecodeCache: any bytes give a cache or an error, never a panic; a
// cache decoded encodes to bytes that decode to the same cache.
func FuzzDecodeCache(f *testing.F) {
	f.Add(sampleCache().Encode())
	f.Add([]byte(`{"okey_stats_cache":1,"verifier":"x","files":{}}`))
	f.Add([]byte(`{"okey_stats_cache":1,"verifier":"x","files":null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := DecodeCache(b)
		if err != nil {
			if c != nil || !errors.Is(err, ErrCache) {
				t.Fatalf("error %v with %v", err, c)
			}
			return
		}
		again, err := DecodeCache(c.Encode())
		if err != nil {
			t.Fatalf("a decoded cache does not decode again: %v", err)
		}
		if !reflect.DeepEqual(again, c) {
			t.Fatalf("round trip differs:\n%+v\n%+v", again, c)
		}
	})
}
