package ui

import (
	"reflect"
	"testing"
)

func TestPackParts(t *testing.T) {
	for _, c := range []struct {
		in   string
		w    int
		want []string
	}{
		{"12 tiles · opened · 0 pts", 22, []string{"12 tiles · opened", "0 pts"}},
		{"12 tiles · opened · 0 pts", 40, []string{"12 tiles · opened · 0 pts"}},
		{"21 tiles · not opened · -101 pts", 12, []string{"21 tiles", "not opened", "-101 pts"}},
		{"one", 1, []string{"one"}},
	} {
		if got := packParts(c.in, c.w); !reflect.DeepEqual(got, c.want) {
			t.Errorf("packParts(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
	}
}
