package verdict

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
)

// suiteCase is a transcript case of the conformance suite (protocol.md 8).
type suiteCase struct {
	Name   string `json:"name"`
	File   string `json:"file"`
	Status int    `json:"status"`
	Seat   *int   `json:"seat"`
	Rule   string `json:"rule"`
	Scores []int  `json:"scores"`
	Next   *int   `json:"next"`
}

func loadSuite(t *testing.T) (string, []suiteCase) {
	t.Helper()
	dir := filepath.Join("..", "testdata", "conformance")
	raw, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Cases []suiteCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Cases) < 30 {
		t.Fatalf("only %d cases", len(s.Cases))
	}
	return dir, s.Cases
}

// TestConformanceSuite: the verdict on every transcript of the conformance suite is the
// suite's, read from the file's bytes (what the browser page does), and its
// text reads as okey verify prints it (only a violation names a seat). Pure
// verification: no race detector (internal/lane).
func TestConformanceSuite(t *testing.T) {
	lane.NoRace(t)
	i18n.Set(i18n.English)
	dir, cases := loadSuite(t)
	seen := map[int]bool{}
	for _, c := range cases {
		path := filepath.Join(dir, c.File)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got := Bytes(c.Name, data)
		if got.Status != c.Status || string(got.Rule) != c.Rule || !sameInt(got.Cheater, c.Seat) || !sameInt(got.Next, c.Next) {
			t.Errorf("%s: status %d cheater %v rule %q next %v; want %d %v %q %v", c.Name, got.Status, deref(got.Cheater), got.Rule, deref(got.Next),
				c.Status, deref(c.Seat), c.Rule, deref(c.Next))
		}
		if c.Scores != nil && !slices.Equal(got.Scores, c.Scores) {
			t.Errorf("%s: scores %v, want %v", c.Name, got.Scores, c.Scores)
		}
		text := got.Text()
		name := c.Name
		if got.Cut {
			name += " (cut short inside its last record)"
		}
		want := map[int]string{0: ": honest: ", 1: ": CHEATING: seat ", 2: ": ", 3: ": unfinished, honest so far: "}[got.Status]
		if !strings.HasPrefix(text, name+want) || !strings.HasSuffix(text, "\n") {
			t.Errorf("%s: %q does not start %q", c.Name, text, name+want)
		}
		if got.Status != 1 && strings.Contains(text, "CHEAT") {
			t.Errorf("%s: status %d names a cheat: %q", c.Name, got.Status, text)
		}
		seen[got.Status] = true
	}
	if len(seen) != 4 {
		t.Errorf("the suite gives statuses %v, want all four", seen)
	}
}

// TestFileAndBytesAgree: read from its path or from its bytes, a file gets
// the same verdict, to the byte of its JSON and its text.
func TestFileAndBytesAgree(t *testing.T) {
	i18n.Set(i18n.English)
	dir := filepath.Join("..", "testdata", "conformance", "transcripts")
	for _, name := range []string{"torn-last-record.okey", "bad-signature.okey"} {
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		a, b := Bytes(path, data), File(path)
		if a.JSON() != b.JSON() || a.Text() != b.Text() {
			t.Errorf("%s: from bytes %q, from the path %q", name, a.Text(), b.Text())
		}
	}
	if r := File(dir); r.Status != 2 || r.Error != "is a directory, not a transcript" {
		t.Errorf("a directory: %+v", r)
	}
}

// TestUnreadable: bytes that are no transcript are status 2 with a reason
// for a person, in English in JSON and in the interface's language in text.
func TestUnreadable(t *testing.T) {
	i18n.Set(i18n.Turkish)
	defer i18n.Set(i18n.English)
	r := Bytes("x", []byte("hello"))
	if r.Status != 2 || r.Error != "not an okey transcript" || strings.Contains(r.Text(), "not an okey transcript") {
		t.Fatalf("%+v %q", r, r.Text())
	}
}

// TestWorst: a named cheater before a damaged file, before an unfinished
// one, before honest, whatever the order.
func TestWorst(t *testing.T) {
	order := []int{1, 2, 3, 0}
	for i, a := range order {
		for j, b := range order {
			want := order[min(i, j)]
			if got := Worst(a, b); got != want {
				t.Errorf("Worst(%d, %d) = %d, want %d", a, b, got, want)
			}
		}
	}
}

func sameInt(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}
