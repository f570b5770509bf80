package invite

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// wrapAt cuts s into lines of at most w characters, as the lobby shows a
// code.
func wrapAt(s string, w int) []string {
	var out []string
	for len(s) > w {
		out = append(out, s[:w])
		s = s[w:]
	}
	return append(out, s)
}

// TestParsePasted: a code wrapped over lines, spaced, with the line breaks
// of any system and the invisible characters a chat adds, parses whole; a
// cut or mistyped one is refused as Parse refuses it.
func TestParsePasted(t *testing.T) {
	c := realistic(t)
	text, err := c.Encode()
	if err != nil {
		t.Fatal(err)
	}
	for name, in := range map[string]string{
		"two lines":      strings.Join(wrapAt(text, 120), "\n"),
		"three lines":    "  " + strings.Join(wrapAt(text, 76), "\r\n  ") + "\r\n",
		"spaced":         strings.Join(wrapAt(text, 7), " "),
		"tabs and nbsp":  strings.Join(wrapAt(text, 50), "\t\u00a0"),
		"zero width":     strings.Join(wrapAt(text, 30), "\u200b\n"),
		"bom and hyphen": "\ufeff" + strings.Join(wrapAt(text, 100), "\u00ad\n"),
	} {
		got, err := ParsePasted(in)
		if err != nil || !codesEqual(got, c) {
			t.Errorf("%s: %v", name, err)
		}
		if Compact(in) != text {
			t.Errorf("%s: Compact gives %q", name, Compact(in))
		}
	}
	half := wrapAt(text, 120)[0]
	if _, err := ParsePasted(half + "\n"); !errors.Is(err, ErrTypo) && !errors.Is(err, ErrMalformed) {
		t.Errorf("half a code: %v", err)
	}
	if _, err := Parse(strings.Join(wrapAt(text, 120), "\n")); err == nil {
		t.Error("Parse itself took a code with a line break in it")
	}
}

// TestRead: Read takes a code wrapped over lines (the first line alone is
// not a code), stops once the code is whole without waiting for the end of
// the input (a terminal), and says why when there is no whole code.
func TestRead(t *testing.T) {
	text, err := realistic(t).Encode()
	if err != nil {
		t.Fatal(err)
	}
	lines := wrapAt(text, 76)
	if len(lines) < 3 {
		t.Fatalf("a code of %d characters", len(text))
	}
	for name, in := range map[string]string{
		"wrapped":            strings.Join(lines, "\n") + "\n",
		"wrapped, no eol":    strings.Join(lines, "\n"),
		"indented, crlf":     "\r\n  " + strings.Join(lines, "\r\n  ") + "\r\n\r\n",
		"one line":           text + "\n",
		"then something":     strings.Join(lines, "\n") + "\nthanks, see you at 9\n",
		"spaces in the line": strings.Join(wrapAt(text, 5), " ") + "\n",
	} {
		got, err := Read(strings.NewReader(in))
		if err != nil || got != text {
			t.Errorf("%s: %q, %v", name, got, err)
		}
	}
	for name, tc := range map[string]struct {
		in   string
		want error
	}{
		"empty":       {"", ErrNoCode},
		"blank":       {"\n  \r\n\t\n", ErrNoCode},
		"first line":  {lines[0] + "\n", ErrTypo},
		"not a code":  {"hello\nworld\n", ErrNotACode},
		"too much":    {strings.Repeat("okey1 ", 1000), ErrTooLong},
		"cut, then x": {lines[0] + "\n" + lines[1] + "\nxyz\n", ErrTypo},
	} {
		got, err := Read(strings.NewReader(tc.in))
		if got != "" || !errors.Is(err, tc.want) {
			t.Errorf("%s: %q, %v; want %v", name, got, err, tc.want)
		}
	}
	if _, err := Read(nil); !errors.Is(err, ErrNoCode) {
		t.Errorf("nil reader: %v", err)
	}
	// A terminal: the lines come one by one and the input never ends.
	pr, pw := io.Pipe()
	defer pw.Close()
	done := make(chan string, 1)
	go func() {
		s, err := Read(pr)
		if err != nil {
			s = err.Error()
		}
		done <- s
	}()
	for _, l := range lines {
		if _, err := pw.Write([]byte(l + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case got := <-done:
		if got != text {
			t.Fatalf("from a terminal: %q", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Read waits for the end of the input after a whole code")
	}
}
