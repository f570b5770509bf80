package ui

import (
	"fmt"

	"github.com/okey-game/okey/engine"
)

// team is the name of seat's team ("team A" for seats 1 and 3, "team B"
// for 2 and 4, as players count them) when partners share a score, or "".
func team(r engine.Ruleset, n, seat int) string {
	if !r.Teams(n) || seat < 0 {
		return ""
	}
	return fmt.Sprintf("team %c", 'A'+seat%2)
}

// teamName is a seat's name in a column of w cells, with its team when there
// are teams ("ayse      team A").
func teamName(r engine.Ruleset, names []string, seat, w int) string {
	name := fmt.Sprintf("seat %d", seat)
	if seat >= 0 && seat < len(names) {
		name = names[seat]
	}
	tm := team(r, len(names), seat)
	if tm == "" {
		return fmt.Sprintf("%-*.*s", w, w, name)
	}
	nw := max(w-len(tm)-1, 1)
	return fmt.Sprintf("%-*.*s %s", nw, nw, name, tm)
}

// teamsLine says who plays with whom ("team A: ayse and bot2; team B: bot1
// and bot3"), or "" without teams.
func teamsLine(r engine.Ruleset, names []string) string {
	if !r.Teams(len(names)) {
		return ""
	}
	return fmt.Sprintf("partners share a score: team A %s and %s, team B %s and %s",
		names[0], names[2], names[1], names[3])
}

// scoringLine says in one line how the ruleset scores.
func scoringLine(r engine.Ruleset) string {
	switch r.Scoring {
	case engine.CountDown:
		return fmt.Sprintf("from %d down when another wins: higher is better", r.StartScore)
	case engine.Penalty:
		return "penalty points for the losers of each hand: lower is better"
	case engine.WinnerCountDown:
		return fmt.Sprintf("the winner's account falls from %d: lower is better; 0 wins", r.StartScore)
	case engine.Strokes:
		return "a stroke for the winner of each hand: more is better"
	}
	return ""
}
