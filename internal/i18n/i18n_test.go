package i18n

import "testing"

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
		err  bool
	}{
		{"", "en", false}, {"C", "en", false}, {"POSIX", "en", false},
		{"en", "en", false}, {"en_US.UTF-8", "en", false},
		{"tr", "tr", false}, {"tr_TR.UTF-8", "tr", false}, {"tr-TR", "tr", false},
		{"de_DE.UTF-8", "en", true}, {"!!", "en", true},
	} {
		got, err := Parse(c.in)
		if got.String() != c.want || (err != nil) != c.err {
			t.Errorf("Parse(%q) = %v, %v; want %s, error %v", c.in, got, err, c.want, c.err)
		}
	}
}

func TestFromEnv(t *testing.T) {
	env := map[string]string{"LANG": "tr_TR.UTF-8"}
	if got := FromEnv(func(k string) string { return env[k] }); got != Turkish {
		t.Fatalf("LANG=tr_TR: got %v", got)
	}
	env["LC_ALL"] = "C"
	if got := FromEnv(func(k string) string { return env[k] }); got != English {
		t.Fatalf("LC_ALL=C overrides LANG: got %v", got)
	}
}

func TestNoDuplicateKeys(t *testing.T) {
	if _, dups := trEntries(); len(dups) > 0 {
		t.Fatalf("keys in two parts of the Turkish catalogue: %q", dups)
	}
}

func TestPrinter(t *testing.T) {
	if got := Printer(Turkish).Sprintf("okey"); got != "okey" {
		t.Fatalf("Turkish okey: %q", got)
	}
	if got := Printer(English).Sprintf("%d tiles", 3); got != "3 tiles" {
		t.Fatalf("English fallback: %q", got)
	}
}

// FuzzParse: any text gives English or Turkish, an error only with English,
// and Parse of the tag's own name gives the tag back.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "tr", "tr_TR.UTF-8", "en_US@euro", "C", "de", "!!", "tr-Latn-TR", "TR"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tag, err := Parse(s)
		if tag != English && tag != Turkish {
			t.Fatalf("Parse(%q) = %v", s, tag)
		}
		if err != nil && tag != English {
			t.Fatalf("Parse(%q): error %v with %v", s, err, tag)
		}
		if back, err := Parse(tag.String()); err != nil || back != tag {
			t.Fatalf("Parse(%q) = %v, %v", tag.String(), back, err)
		}
	})
}

// TestPlurals: English counts take the singular at 1 only; Turkish has no
// plural after a number; numbers print without grouping in both.
func TestPlurals(t *testing.T) {
	for _, c := range []struct {
		n   int
		en  string
		tr  string
		key string
	}{
		{1, "1 turn", "1 hamle", "%d turns"},
		{2, "2 turns", "2 hamle", "%d turns"},
		{0, "0 hands", "0 el", "%d hands"},
		{1234, "1234 messages", "1234 mesaj", "%d messages"},
	} {
		if got := Sprintf(English, c.key, c.n); got != c.en {
			t.Errorf("English %q %d: %q, want %q", c.key, c.n, got, c.en)
		}
		if got := Sprintf(Turkish, c.key, c.n); got != c.tr {
			t.Errorf("Turkish %q %d: %q, want %q", c.key, c.n, got, c.tr)
		}
	}
	if got := Sprintf(Turkish, "seat %d", 12345); got != "oyuncu 12345" {
		t.Errorf("a number grouped: %q", got)
	}
}

// TestSetAndT: T follows Set; an unknown key prints as its English format.
func TestSetAndT(t *testing.T) {
	defer Set(English)
	Set(Turkish)
	if got := T("your turn"); got != "sıra sende" || Current() != Turkish {
		t.Errorf("Turkish T: %q", got)
	}
	if got := T("no such key %d", 3); got != "no such key 3" {
		t.Errorf("a key with no entry: %q", got)
	}
	Set(English)
	if got := T("your turn"); got != "your turn" || Current() != English {
		t.Errorf("English T: %q", got)
	}
}
