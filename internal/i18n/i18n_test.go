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
