package ui

import (
	"fmt"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/ui/tablemodel"
)

// team is the name of seat's team when partners share a score, or ""
// (tablemodel.Team).
func team(r engine.Ruleset, n, seat int) string { return tablemodel.Team(r, n, seat) }

// teamsLine says who plays with whom, or "" without teams
// (tablemodel.TeamsLine).
func teamsLine(r engine.Ruleset, names []string) string { return tablemodel.TeamsLine(r, names) }

// scoringLine says in one line how the ruleset scores
// (tablemodel.ScoringLine).
func scoringLine(r engine.Ruleset) string { return tablemodel.ScoringLine(r) }

// causes explains each seat's score change for a hand (tablemodel.Causes).
func causes(m *engine.Match, res engine.HandResult, names []string) []string {
	return tablemodel.Causes(m, res, names)
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
