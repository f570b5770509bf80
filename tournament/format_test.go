package tournament

import (
	"errors"
	"testing"
)

// TestFormat: the texts of docs/rules.md "Tournaments".
func TestFormat(t *testing.T) {
	for _, c := range []struct{ in, canon string }{
		{"swiss", "swiss"},
		{"swiss:rounds=3,points=3-2-1-0", "swiss"},
		{"swiss:rounds=5", "swiss:rounds=5"},
		{"swiss:rounds=4,points=4-2-1-0", "swiss:points=4-2-1-0,rounds=4"},
		{"swiss:points=1-0-0-0", "swiss:points=1-0-0-0"},
		{"swiss:points=0-0-0-0,rounds=1", "swiss:points=0-0-0-0,rounds=1"},
	} {
		f, err := ParseFormat(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if f.String() != c.canon {
			t.Errorf("%q: canonical %q, want %q", c.in, f.String(), c.canon)
		}
		if _, err := ParseCanonicalFormat(c.in); (err == nil) != (c.in == c.canon) {
			t.Errorf("%q: ParseCanonicalFormat err %v", c.in, err)
		}
	}
	for _, bad := range []string{
		"", "round-robin", "swiss:", "swiss:rounds=0", "swiss:rounds=16", "swiss:rounds=03", "swiss:rounds=+3",
		"swiss:rounds=3,rounds=3", "swiss:points=3-2-1", "swiss:points=3-2-1-0-0", "swiss:points=1-2-1-0",
		"swiss:points=100-2-1-0", "swiss:points=3-2--1-0", "swiss:pace=1", "swiss:rounds=3,", "Swiss", "swiss:rounds",
	} {
		if _, err := ParseFormat(bad); !errors.Is(err, ErrFormat) {
			t.Errorf("%q: err %v, want ErrFormat", bad, err)
		}
	}
}

// TestTableSizes: "t = ceil(n/4) tables, the last 4t-n of 3 seats".
func TestTableSizes(t *testing.T) {
	for n, want := range map[int]string{3: "[3]", 4: "[4]", 6: "[3 3]", 7: "[4 3]", 8: "[4 4]", 9: "[3 3 3]", 10: "[4 3 3]", 11: "[4 4 3]", 12: "[4 4 4]", 13: "[4 3 3 3]"} {
		got, err := TableSizes(n)
		if err != nil || fmtInts(got) != want {
			t.Errorf("%d players: %v %v, want %s", n, got, err, want)
		}
	}
	for _, n := range []int{0, 1, 2, 5, 65} {
		if _, err := TableSizes(n); err == nil {
			t.Errorf("%d players accepted", n)
		}
	}
}

func FuzzParseFormat(f *testing.F) {
	for _, s := range []string{"swiss", "swiss:rounds=3,points=3-2-1-0", "swiss:points=4-2-1-0,rounds=4", "swiss:rounds=9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fm, err := ParseFormat(s)
		if err != nil {
			return
		}
		again, err := ParseCanonicalFormat(fm.String())
		if err != nil || again != fm {
			t.Fatalf("%q: canonical %q does not read back: %v", s, fm.String(), err)
		}
	})
}
