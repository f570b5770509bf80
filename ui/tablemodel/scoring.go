package tablemodel

import (
	"fmt"
	"strings"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// Causes explains each seat's score change for a hand: the win (and what
// made it worth more), each gösterme, a stalemate. It asks the match's own
// scoring for each part on its own, so it cannot disagree with the total.
func Causes(m *engine.Match, res engine.HandResult, names []string) []string {
	n := len(m.Scores())
	parts := make([][]string, n)
	addPart := func(label string, d []int) {
		for s := 0; s < n && s < len(d); s++ {
			if d[s] != 0 {
				parts[s] = append(parts[s], fmt.Sprintf("%s %+d", label, d[s]))
			}
		}
	}
	none := m.Deltas(engine.HandResult{Winner: -1, Upcard: -1})
	// base is the hand without the gösterme and upcard parts: each of those
	// is what it adds to it.
	base := engine.HandResult{Winner: -1, Upcard: -1}
	if res.Winner >= 0 {
		win := engine.HandResult{Winner: res.Winner, Kind: res.Kind, OkeyDiscard: res.OkeyDiscard, OneColour: res.OneColour, Upcard: -1}
		base = win
		var how []string
		if res.Kind == engine.Pairs {
			how = append(how, i18n.T("seven pairs"))
		}
		if res.OkeyDiscard {
			how = append(how, i18n.T("okey discard"))
		}
		if res.OneColour < engine.NumColours {
			plain := win
			plain.OneColour = engine.NumColours
			if fmt.Sprint(m.Deltas(plain)) != fmt.Sprint(m.Deltas(win)) {
				how = append(how, i18n.T("one colour"))
			}
		}
		suffix := ""
		if len(how) > 0 {
			suffix = " (" + strings.Join(how, ", ") + ")"
		}
		// Each row says whose win it is: the winner's own, the partner's,
		// or the winner's name (a loser's "win -4" read as if they had won).
		who := i18n.T("seat %d", res.Winner)
		if res.Winner < len(names) {
			who = names[res.Winner]
		}
		r := m.Rules()
		d := m.Deltas(win)
		for s := 0; s < n && s < len(d); s++ {
			if d[s] == 0 {
				continue
			}
			label := i18n.T("%s won", who)
			switch {
			case s == res.Winner:
				label = i18n.T("won")
			case r.Teams(n) && (s+2)%4 == res.Winner:
				label = i18n.T("partner won")
			}
			parts[s] = append(parts[s], fmt.Sprintf("%s%s %+d", label, suffix, d[s]))
		}
	} else {
		addPart(i18n.T("stalemate"), none)
	}
	minus := func(d, e []int) []int {
		for i := range d {
			d[i] -= e[i]
		}
		return d
	}
	without := m.Deltas(base)
	if res.Upcard >= 0 {
		with := base
		with.Upcard = res.Upcard
		who := i18n.T("seat %d", res.Upcard)
		if res.Upcard < len(names) {
			who = names[res.Upcard]
		}
		addPart(i18n.T("upcard held by %s", who), minus(m.Deltas(with), without))
	}
	for _, s := range res.Shown {
		with := base
		with.Shown = []int{s}
		d := minus(m.Deltas(with), without)
		who := i18n.T("seat %d", s)
		if s < len(names) {
			who = names[s]
		}
		addPart(i18n.T("gösterme by %s", who), d)
	}
	out := make([]string, n)
	for s := range out {
		out[s] = strings.Join(parts[s], ", ")
	}
	return out
}

// Hand-end and match-end figures: who plays with whom and how the
// ruleset scores.

// Team is the name of seat's team ("team A" for seats 1 and 3, "team B"
// for 2 and 4, as players count them) when partners share a score, or "".
func Team(r engine.Ruleset, n, seat int) string {
	if !r.Teams(n) || seat < 0 {
		return ""
	}
	return i18n.T("team %c", 'A'+seat%2)
}

// TeamsLine says who plays with whom ("team A: ayse and bot2; team B: bot1
// and bot3"), or "" without teams.
func TeamsLine(r engine.Ruleset, names []string) string {
	if !r.Teams(len(names)) {
		return ""
	}
	return i18n.T("A: %s and %s, B: %s and %s; partners share a score",
		names[0], names[2], names[1], names[3])
}

// ScoringLine says in one line how the ruleset scores.
func ScoringLine(r engine.Ruleset) string {
	switch r.Scoring {
	case engine.CountDown:
		return i18n.T("from %d down when another wins: higher is better", r.StartScore)
	case engine.Penalty:
		return i18n.T("penalty points for the losers of each hand: lower is better")
	case engine.WinnerCountDown:
		return i18n.T("the winner's account falls from %d: lower is better; 0 wins", r.StartScore)
	case engine.Strokes:
		return i18n.T("a stroke for the winner of each hand: more is better")
	}
	return ""
}
