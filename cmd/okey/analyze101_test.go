package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/okey-game/okey/engine/analysis"
)

func TestAnalyze101Report(t *testing.T) {
	code, out, errs := runOkey(t, "", "analyze", "--preset", "101", "--indicator", "Y1",
		"R10", "R11", "R12", "R13", "B10", "B11", "B12", "B13", "K11", "K12", "K13", "Y2", "B1", "B2", "K5", "K5", "R5")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"okey Y2", "143 points, opens", "R5 Y5* K5", "* okey (Y2) stands for Y5", "* okey (Y2) stands for R5", "K11 K12 K13", "doubles: 2, does not open"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	// 12-13-1 is no run in 101.
	code, out, _ = runOkey(t, "", "analyze", "--preset", "101", "--indicator", "Y1", "K12", "K13", "K1")
	if code != 0 || !strings.Contains(out, "0 points, does not open") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestAnalyze101JSON(t *testing.T) {
	code, out, _ := runOkey(t, "", "analyze", "--preset", "101:no-joker-doubles", "--json", "--indicator", "R4",
		"R1", "R1", "K3", "K3", "B7", "B7", "Y9", "Y9", "R13", "R5")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var got analysis.Opening101
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Doubles != 4 || got.FiveDoubles || got.Opens || got.Preset != "101:no-joker-doubles" {
		t.Fatalf("no-joker-doubles: %+v", got)
	}
	_, out, _ = runOkey(t, "", "analyze", "--preset", "101", "--json", "--indicator", "R4",
		"R1", "R1", "K3", "K3", "B7", "B7", "Y9", "Y9", "R13", "R5")
	json.Unmarshal([]byte(out), &got)
	if got.Doubles != 5 || !got.FiveDoubles || !got.Opens {
		t.Fatalf("an okey in a double: %+v", got)
	}
	// --taken: the opening must use K5, which fits nothing.
	_, out, _ = runOkey(t, "", "analyze", "--preset", "101", "--json", "--indicator", "Y1", "--taken", "K7",
		"R10", "R11", "R12", "R13", "B10", "B11", "B12", "B13", "K11", "K12", "K13", "K7")
	got = analysis.Opening101{}
	json.Unmarshal([]byte(out), &got)
	if got.Value != 0 || got.Reaches101 || got.Taken != "K7" || len(got.Groups) != 0 {
		t.Fatalf("taken K7: %+v", got)
	}
}

func TestAnalyze101BatchAndErrors(t *testing.T) {
	code, out, _ := runOkey(t, "Y1: R10 R11 R12\n# comment\nY1: R0\nR1 R2\n", "analyze", "--preset", "101")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 || !strings.Contains(lines[0], `"value":33`) ||
		!strings.Contains(lines[1], `"error"`) || !strings.Contains(lines[2], `"error"`) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, args := range [][]string{
		{"analyze", "--preset", "101:rounds=4", "--indicator", "Y1", "R1"},
		{"analyze", "--preset", "nope", "--indicator", "Y1", "R1"},
		{"analyze", "--preset", "101", "R1"},
		{"analyze", "--preset", "101", "--indicator", "Y1", "R1", "R1", "R1"},
		{"analyze", "--preset", "101", "--indicator", "Y1", "--taken", "K9", "R1"},
		{"analyze", "--taken", "K9", "--indicator", "Y1", "R1"},
		{"analyze", "--preset", "101", "--indicator", "Y1",
			"R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10"}, // 23 tiles
	} {
		if code, _, errs := runOkey(t, "", strings.Fields(strings.Join(args, " "))...); code != 2 || !strings.HasPrefix(errs, "okey: analyze: ") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

// TestAnalyze101Taken: issue 20's racks. A taken false joker plays as the
// okey's face (R4 FJ R6 is 4 5 6); a taken okey with no single takes a
// tile's place in a double.
func TestAnalyze101Taken(t *testing.T) {
	fj := []string{"analyze", "--preset", "101", "--taken", "FJ", "--indicator", "R4", "R4", "R6", "FJ", "K9", "K10", "K11"}
	code, out, errs := runOkey(t, "", append([]string{fj[0], "--json"}, fj[1:]...)...)
	var got analysis.Opening101
	if code != 0 || errs != "" || json.Unmarshal([]byte(out), &got) != nil {
		t.Fatalf("exit %d, stderr %q, %s", code, errs, out)
	}
	if got.Value != 45 || got.Taken != "FJ" || len(got.Groups) != 2 || strings.Join(got.Groups[0], " ") != "R4 FJ R6" {
		t.Fatalf("taken FJ: %+v", got)
	}
	if _, out, _ = runOkey(t, "", fj...); !strings.Contains(out, "45 points, does not open") || !strings.Contains(out, "R4 FJ R6") {
		t.Fatalf("taken FJ, report:\n%s", out)
	}
	okey := []string{"analyze", "--preset", "101", "--taken", "R5", "--indicator", "R4",
		"K3", "K3", "Y7", "Y7", "B1", "B1", "B2", "B2", "K13", "K13", "R5"}
	_, out, _ = runOkey(t, "", append([]string{okey[0], "--json"}, okey[1:]...)...)
	got = analysis.Opening101{}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Doubles != 5 || !got.FiveDoubles || !got.Opens || !strings.Contains(out, `"R5=`) {
		t.Fatalf("taken okey in doubles: %s", out)
	}
	if _, out, _ = runOkey(t, "", okey...); !strings.Contains(out, "doubles: 5, opens") {
		t.Fatalf("taken okey in doubles, report:\n%s", out)
	}
}
