package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestTournamentNameFlags (issue 37, 10): okey tournament takes the
// player's name as --name, as okey play and okey bot do; --player still
// sets it and says it is deprecated; the tournament's own name is --title.
// (A name that cannot be a record's stops the command before any network;
// TestTournamentCLICode registers names given both ways.)
func TestTournamentNameFlags(t *testing.T) {
	for _, c := range []struct {
		args       []string
		want, not  string
		deprecated bool
	}{
		{args: []string{"join", "--name", "a\x01b"}, want: "okey: --name: "},
		{args: []string{"join", "--player", "a\x01b"}, want: "okey: --name: ", deprecated: true},
		{args: []string{"create", "--players", "4", "--title", "", "--name", "ayse"}, want: "okey: --title: ", not: "--name"},
	} {
		var out, errb bytes.Buffer
		code := runTournament(append(c.args, "--data", t.TempDir(), "--dir", t.TempDir()), nil, &out, &errb)
		s := errb.String()
		if code != 2 || !strings.Contains(s, c.want) || (c.not != "" && strings.Contains(s, c.not)) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, code, s, c.want)
		}
		if got := strings.Contains(s, "--player is deprecated: use --name"); got != c.deprecated {
			t.Errorf("%q: says --player is deprecated: %v, want %v (stderr %q)", c.args, got, c.deprecated, s)
		}
	}
	var errb bytes.Buffer
	runTournament([]string{"create", "-h"}, nil, &bytes.Buffer{}, &errb)
	for _, want := range []string{"[--title T] [--name NAME]", "  -name string\n    \tdisplay name", "  -title string\n"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("-h: no %q in:\n%s", want, errb.String())
		}
	}
}
