package analysis

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/okey-game/okey/engine"
)

func fields(s string) []string { return strings.Fields(s) }

func TestAnalyze14(t *testing.T) {
	res, err := Analyze("R4", fields("R1 R2 R3 Y7 B7 K7 K9 K10 K11 K12 B1 B2 B3 R5"), true)
	if err != nil {
		t.Fatal(err)
	}
	h, ok := res.(*Hand14)
	if !ok || !h.Winning || *h.Kind != "groups" || h.Okey != "R5" || h.Distance != 0 || len(h.Groups) != 4 || len(h.Layout) != 4 || h.OkeyFace.String() != "R5" {
		t.Fatalf("got %+v", res)
	}
	res, err = Analyze("R4", fields("R1 R2 R3 Y7 B7 K7 K9 K10 K11 K12 B1 B2 B3 B5"), true)
	if err != nil {
		t.Fatal(err)
	}
	h = res.(*Hand14)
	if h.Winning || h.Kind != nil || h.Distance != 1 || len(h.Groups) != 0 || !strings.Contains(engine.FormatFaces(h.Rest), "B5") {
		t.Fatalf("got %+v", h)
	}
}

func TestAnalyze15(t *testing.T) {
	res, err := Analyze("K13", fields("K12 K13 K1 R1 Y1 B1 R5 R6 R7 Y9 Y10 Y11 Y12 Y13 B8"), true)
	if err != nil {
		t.Fatal(err)
	}
	h, ok := res.(*Hand15)
	if !ok || strings.Join(h.WinningDiscards, " ") != "B8" || h.BestDist != 0 {
		t.Fatalf("got %+v", res)
	}
}

// TestAnalyzeErrors: a bad hand is an Error with its catalogue key, or the
// engine's message without its prefix.
func TestAnalyzeErrors(t *testing.T) {
	for _, c := range []struct {
		ind, tiles, key, text string
	}{
		{"FJ", "R1", "indicator %q: a false joker is never the indicator", `indicator "FJ": a false joker is never the indicator`},
		{"R4", "R4 R4 R1 R2 R3 Y7 B7 K7 K9 K10 K11 K12 B1 B2", "two %v in the hand and %v is the indicator: there are only two", "two R4 in the hand"},
		{"R4", "R1 R2 R3", "need %d or %d tiles, got %d", "need 14 or 15 tiles, got 3"},
		{"Q4", "R1", "indicator: %v", "indicator: "},
	} {
		_, err := Analyze(c.ind, fields(c.tiles), false)
		var e *Error
		if !errors.As(err, &e) || e.Key != c.key || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%s: %s: %v, want key %q and %q", c.ind, c.tiles, err, c.key, c.text)
		}
	}
	if _, err := Analyze("R4", fields("R1 X9"), false); err == nil || strings.HasPrefix(err.Error(), "engine: ") {
		t.Errorf("a bad tile: %v, want the engine's message without its prefix", err)
	}
}

func TestAnalyze101(t *testing.T) {
	rules := engine.MustRuleset("101", "")
	o, err := Analyze101(rules, "R4", "", fields("R1 R1 K3 K3 B7 B7 Y9 Y9 R13 R5"))
	if err != nil {
		t.Fatal(err)
	}
	if o.Doubles != 5 || !o.FiveDoubles || !o.Opens || o.Okey != "R5" || len(o.Pairs) != 5 {
		t.Fatalf("got %+v", o)
	}
	// A false joker as the indicator is the engine's error at 101.
	if _, err := Analyze101(rules, "FJ", "", fields("R1")); err == nil {
		t.Fatal("a false joker indicator analysed")
	}
	if _, err := Analyze101(rules, "R4", "", nil); err == nil || !strings.Contains(err.Error(), "need 1 to") {
		t.Fatalf("an empty rack: %v", err)
	}
}

// TestBatch: one answer a line, in order; comments and blank lines
// skipped; a bad line answered with its number (counting every line).
func TestBatch(t *testing.T) {
	in := "# hands\nR4: R1 R2 R3 Y7 B7 K7 K9 K10 K11 K12 B1 B2 B3 R5\n\nR1 R2 R3\nR4: R1 R2\n"
	var out bytes.Buffer
	readErr, writeErr := Batch("", strings.NewReader(in), &out, func(err error) string { return err.Error() }, func(ind string, tiles []string) (any, error) {
		return Analyze(ind, tiles, false)
	})
	if readErr != nil || writeErr != nil {
		t.Fatal(readErr, writeErr)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %q", out.String())
	}
	var first Hand14
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || !first.Winning {
		t.Fatalf("line 2: %s %v", lines[0], err)
	}
	if lines[1] != `{"line":4,"error":"want \"INDICATOR: TILES\", no colon in line"}` || lines[2] != `{"line":5,"error":"need 14 or 15 tiles, got 2"}` {
		t.Fatalf("got %q", lines[1:])
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("closed") }

// TestBatchOutputLost: output that cannot be written stops the batch.
func TestBatchOutputLost(t *testing.T) {
	_, writeErr := Batch("R4", strings.NewReader("R1 R2\nR1 R2\n"), failWriter{}, func(err error) string { return err.Error() }, func(string, []string) (any, error) {
		return 1, nil
	})
	if writeErr == nil {
		t.Fatal("no error when the output is lost")
	}
}
