package analysis

import (
	"bytes"
	"strings"
	"testing"

	"github.com/okey-game/okey/engine"
)

// TestReport: the report for a person marks each okey with the face it
// stands for and a legend line; a hand that does not win says how far it
// is and what is left; 15 tiles name the winning discards; an Okey 101
// rack its opening by sets and runs and by doubles.
func TestReport(t *testing.T) {
	report := func(res any, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		Report(&b, res)
		return b.String()
	}
	for _, c := range []struct {
		out  string
		want []string
	}{
		{report(Analyze("R4", fields("R1 R2 R3 Y7 B7 K7 K9 K10 K11 K12 B1 B2 B3 R5"), true)),
			[]string{"indicator R4, okey R5\n", "winning:  groups\n", "  K9 K10 K11 K12 K13*\n", "  * okey (R5) stands for K13\n"}},
		{report(Analyze("R4", fields("R1 R2 R3 Y7 B7 K7 K9 K10 K11 K12 B1 B2 B3 B5"), true)),
			[]string{"not winning: 1 to exchange, at the fewest\n", "  rest: B5\n"}},
		{report(Analyze("K13", fields("K12 K13 K1 R1 Y1 B1 R5 R6 R7 Y9 Y10 Y11 Y12 Y13 B8"), true)),
			[]string{"winning discards: B8\n"}},
		{report(Analyze101(mustRules(t, "101"), "Y1", "", fields("R10 R11 R12 R13 B10 B11 B12 B13 K11 K12 K13 Y2 B1 B2 K5 K5 R5"))),
			[]string{"indicator Y1, okey Y2 (Okey 101)\n", "sets and runs: 143 points, opens (101 needed)\n", "  R5 Y5* K5\n", "  * okey (Y2) stands for Y5\n",
				"doubles: 2, does not open (5 needed)\n"}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.out, w) {
				t.Errorf("no %q in:\n%s", w, c.out)
			}
		}
	}
}

func mustRules(t *testing.T, spec string) engine.Ruleset {
	t.Helper()
	r, err := engine.ParseRuleset(spec)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
