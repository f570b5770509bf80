package i18n

import (
	"regexp"
	"testing"
)

// TestTurnIsNotRound (issue 37, 12): "tur" is a tournament's round in
// Turkish; a player's turn is "hamle" (or "sıra"), never "tur", and a
// silent player is no "susan koltuk".
func TestTurnIsNotRound(t *testing.T) {
	turn := regexp.MustCompile(`\bturns?\b`)
	round := regexp.MustCompile(`\brounds?\b`) // a text with both may say tur for its rounds
	tur := regexp.MustCompile(`(^|[^\pL])tur(a|u|un|da|dan|unda)?([^\pL]|$)`)
	all, _ := trEntries()
	for k, v := range all {
		if turn.MatchString(k) && !round.MatchString(k) && tur.MatchString(v) {
			t.Errorf("a turn is said as a round (tur): %q: %q", k, v)
		}
		if regexp.MustCompile(`susan koltuk`).MatchString(v) {
			t.Errorf("%q: %q: say a silent player (sessiz kalan oyuncu)", k, v)
		}
	}
}
