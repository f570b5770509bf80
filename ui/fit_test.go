package ui

import "testing"

// TestFitKeep: a line too narrow for every part keeps its first parts and
// the part it must keep, with an ellipsis for what went between; the parts
// after the kept one go first; a line that fits, or a kept part that fits
// anyway, is fitParts' line.
func TestFitKeep(t *testing.T) {
	const s = "add Y10→8 · swap R8⇄A · lay R2 R2* · then discard the R6 (x) · you can add: Y3→N"
	for _, tc := range []struct {
		keep string
		w    int
		want string
	}{
		{"then discard the R6 (x)", 200, s},
		{"then discard the R6 (x)", 62, "add Y10→8 · swap R8⇄A · lay R2 R2* · then discard the R6 (x)"},
		{"then discard the R6 (x)", 51, "add Y10→8 · swap R8⇄A · … · then discard the R6 (x)"},
		{"then discard the R6 (x)", 40, "add Y10→8 · … · then discard the R6 (x)"},
		{"then discard the R6 (x)", 20, "add Y10→8"}, // no room for both: fitParts' line
		{"", 40, "add Y10→8 · swap R8⇄A · lay R2 R2*"},
		{"not a part", 40, "add Y10→8 · swap R8⇄A · lay R2 R2*"},
	} {
		if got := fitKeep(s, tc.keep, tc.w); got != tc.want {
			t.Errorf("fitKeep(keep %q, %d) = %q, want %q", tc.keep, tc.w, got, tc.want)
		}
	}
}
