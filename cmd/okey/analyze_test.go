package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/okey-game/okey/internal/i18n"
)

func runOkey(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	// run sets the language (--lang, LANG): the next test starts in English.
	i18n.Set(i18n.English)
	return code, out.String(), errb.String()
}

func TestAnalyzeReport(t *testing.T) {
	code, out, errs := runOkey(t, "", "analyze", "--indicator", "R4",
		"R1", "R2", "R3", "Y7", "B7", "K7", "K9", "K10", "K11", "K12", "B1", "B2", "B3", "R5")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"okey R5", "winning:  groups", "K9 K10 K11 K12 K13*", "* okey (R5) stands for K13", "R1 R2 R3", "Y7 B7 K7"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}

	code, out, _ = runOkey(t, "", "analyze", "--indicator", "r4",
		"r1", "r2", "r3", "y7", "b7", "k7", "k9", "k10", "k11", "k12", "b1", "b2", "b3", "b5")
	if code != 0 || !strings.Contains(out, "not winning: 1 to exchange") || !strings.Contains(out, "rest: B5") {
		t.Fatalf("exit %d, report:\n%s", code, out)
	}

	code, out, _ = runOkey(t, "", "analyze", "--indicator", "R4",
		"R1", "R2", "R3", "Y7", "B7", "K7", "K9", "K10", "K11", "K12", "B1", "B2", "B3", "B5", "R5")
	if code != 0 || !strings.Contains(out, "winning discards: B1 B5 K9 K12") {
		t.Fatalf("exit %d, report:\n%s", code, out)
	}
}

func TestAnalyzeJSON(t *testing.T) {
	code, out, _ := runOkey(t, "", "analyze", "--json", "--indicator", "R4",
		"K4", "K4", "K2", "K2", "K9", "K9", "B5", "B5", "K13", "K13", "K7", "K7", "B4", "R5")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	if got["winning"] != true || got["kind"] != "pairs" || got["okey"] != "R5" || got["indicator"] != "R4" || got["distance"] != 0.0 {
		t.Fatalf("got %v", got)
	}
	if gs := got["groups"].([]any); len(gs) != 7 || !reflect.DeepEqual(gs[0], []any{"B4", "R5"}) {
		t.Fatalf("groups %v", gs)
	}
	if n := strings.Count(out, "\n"); n != 1 {
		t.Fatalf("want one line, got %q", out)
	}
}

func TestAnalyzeBatch(t *testing.T) {
	in := strings.Join([]string{
		"R4: R1 R2 R3 Y7 B7 K7 K9 K10 K11 K12 B1 B2 B3 R5",
		"",
		"# a comment",
		"K12: K11 K12 K13 K1 Y7 B7 R7 R9 R10 R11 B2 B3 B4 B5",
		"R4: R1 R2 R3 Y7 B7 K7 K9 K10 K11 K12 B1 B2 B3 B5",
		"FJ: R1 R2 R3",
		"R4: R1 R2 Q3",
		"R4: K1 K1 K1",
		"R4: R1 R2 R3",
		"R4 R1 R2 R3",
		"R4: R4 R4 R1 R2 R3 Y7 B7 K7 K9 K10 K11 K12 B1 B2",
		"K13: K12 K13 K1 R1 Y1 B1 R5 R6 R7 Y9 Y10 Y11 Y12 B8 K2",
		"K13: K12 K13 K1 R1 Y1 B1 R5 R6 R7 Y9 Y10 Y11 Y12 Y13 B8",
	}, "\n")
	code, out, errs := runOkey(t, in, "analyze")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := []string{
		`{"indicator":"R4","okey":"R5","tiles":["R1","R2","R3","Y7","B7","K7","K9","K10","K11","K12","B1","B2","B3","R5"],"winning":true,"kind":"groups","groups":[["R1","R2","R3"],["Y7","B7","K7"],["B1","B2","B3"],["K9","K10","K11","K12","R5"]],"distance":0}`,
		`{"indicator":"K12","okey":"K13","tiles":["K11","K12","K13","K1","Y7","B7","R7","R9","R10","R11","B2","B3","B4","B5"],"winning":true,"kind":"groups","groups":[["R7","Y7","B7"],["R9","R10","R11"],["B2","B3","B4","B5"],["K11","K12","K13","K1"]],"distance":0}`,
		`{"indicator":"R4","okey":"R5","tiles":["R1","R2","R3","Y7","B7","K7","K9","K10","K11","K12","B1","B2","B3","B5"],"winning":false,"kind":null,"groups":[],"distance":1}`,
		`{"line":6,"error":"indicator \"FJ\": a false joker is never the indicator"}`,
		`{"line":7,"error":"not a tile: \"Q3\" (colour must be R, Y, B or K)"}`,
		`{"line":8,"error":"more than two copies of a tile: a third K1"}`,
		`{"line":9,"error":"need 14 or 15 tiles, got 3"}`,
		`{"line":10,"error":"want \"INDICATOR: TILES\", no colon in line"}`,
		`{"line":11,"error":"two R4 in the hand and R4 is the indicator: there are only two"}`,
		`{"indicator":"K13","okey":"K1","tiles":["K12","K13","K1","R1","Y1","B1","R5","R6","R7","Y9","Y10","Y11","Y12","B8","K2"],"winning_discards":[]}`,
		`{"indicator":"K13","okey":"K1","tiles":["K12","K13","K1","R1","Y1","B1","R5","R6","R7","Y9","Y10","Y11","Y12","Y13","B8"],"winning_discards":["B8"]}`,
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i, lines[i], want[i])
		}
	}
}

func TestAnalyzeBatchDefaultIndicator(t *testing.T) {
	code, out, _ := runOkey(t, "R1 R2 R3 Y7 B7 K7 K9 K10 K11 K12 B1 B2 B3 R5\n", "analyze", "--indicator", "R4")
	if code != 0 || !strings.Contains(out, `"winning":true`) {
		t.Fatalf("exit %d, %q", code, out)
	}
}

func TestAnalyzeErrors(t *testing.T) {
	tiles := strings.Fields("R1 R2 R3 Y7 B7 K7 K9 K10 K11 K12 B1 B2 B3")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{append([]string{"analyze", "--indicator", "R4"}, append(tiles, "X5")...), `not a tile: "X5"`},
		{append([]string{"analyze", "--indicator", "R4"}, tiles...), "need 14 or 15 tiles, got 13"},
		{append([]string{"analyze", "--indicator", "FJ"}, append(tiles, "R5")...), `indicator "FJ"`},
		{append([]string{"analyze", "--indicator", "R14"}, append(tiles, "R5")...), `indicator: not a tile: "R14"`},
		{append([]string{"analyze", "--indicator", "R4"}, append(tiles, "R1", "R1")...), "a third R1"},
		{append([]string{"analyze"}, append(tiles, "R5")...), "--indicator is required"},
		{[]string{"analyze", "--bogus"}, "flag provided but not defined"},
	} {
		code, out, errs := runOkey(t, "", tc.args...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) || !strings.HasPrefix(errs, "okey: ") && !strings.Contains(errs, "usage") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args[1:], code, out, errs, tc.want)
		}
	}
	if code, out, _ := runOkey(t, "", "analyze", "-h"); code != 0 || !strings.Contains(out, "usage: okey analyze") {
		t.Errorf("-h: exit %d, %q", code, out)
	}
}

func batchInput(n int) string {
	var b strings.Builder
	hands := []string{
		"R4: R1 R2 R3 Y7 B7 K7 K9 K10 K11 K12 B1 B2 B3 R5",
		"R4: R1 R2 R3 Y7 B7 K7 K9 K10 K11 K12 B1 B2 B3 B5",
		"B9: K3 Y6 R5 K9 B10 K4 B4 R10 FJ K3 K5 B12 B11 K8",
		"Y2: R1 R2 R3 Y7 B7 K7 K9 K10 K11 K12 B1 B2 B3 B5 Y3",
	}
	for i := 0; i < n; i++ {
		fmt.Fprintln(&b, hands[i%len(hands)])
	}
	return b.String()
}

// TestAnalyzeBatchLarge checks that a large batch answers every line, in order.
func TestAnalyzeBatchLarge(t *testing.T) {
	const n = 2000
	code, out, _ := runOkey(t, batchInput(n), "analyze")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(lines) != n {
		t.Fatalf("exit %d, %d lines", code, len(lines))
	}
	for i, l := range lines {
		if wins := strings.Contains(l, `"winning":true`); wins != (i%4 == 0) {
			t.Fatalf("line %d: %s", i, l)
		}
	}
}

// BenchmarkAnalyzeBatch measures batch mode in hands per second.
func BenchmarkAnalyzeBatch(b *testing.B) {
	const n = 2000
	in := batchInput(n)
	for b.Loop() {
		var out, errb bytes.Buffer
		if code := run([]string{"analyze"}, strings.NewReader(in), &out, &errb); code != 0 {
			b.Fatalf("exit %d: %s", code, errb.String())
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "hands/s")
}
