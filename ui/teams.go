package ui

import (
	"fmt"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// team is the name of seat's team ("team A" for seats 1 and 3, "team B"
// for 2 and 4, as players count them) when partners share a score, or "".
func team(r engine.Ruleset, n, seat int) string {
	if !r.Teams(n) || seat < 0 {
		return ""
	}
	return i18n.T("team %c", 'A'+seat%2)
}

// teamName is a seat's name in a column of w cells, with its team when there
// are teams ("ayse      team A").
func teamName(r engine.Ruleset, names []string, seat, w int) string {
	name := i18n.T("seat %d", seat)
	if seat >= 0 && seat < len(names) {
		name = names[seat]
	}
	tm := team(r, len(names), seat)
	if tm == "" {
		return fmt.Sprintf("%-*.*s", w, w, name)
	}
	nw := max(w-width(tm)-1, 1)
	return fmt.Sprintf("%-*.*s %s", nw, nw, name, tm)
}

// teamsLine says who plays with whom ("team A: ayse and bot2; team B: bot1
// and bot3"), or "" without teams.
func teamsLine(r engine.Ruleset, names []string) string {
	if !r.Teams(len(names)) {
		return ""
	}
	return i18n.T("A: %s and %s, B: %s and %s; partners share a score",
		names[0], names[2], names[1], names[3])
}

// scoringLine says in one line how the ruleset scores.
func scoringLine(r engine.Ruleset) string {
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
