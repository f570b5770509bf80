package web

import (
	"testing"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/ui"
)

// TestState101HoldsNoHiddenTile plays an Okey 101 match (B101 in the
// player's seat and the three others) and checks every state the page
// would get.
func TestState101HoldsNoHiddenTile(t *testing.T) {
	lane.NoRace(t)
	bots, names := botsFor("101", 3)
	checkMatch(t, ui.LocalOptions{Ruleset: "101:rounds=3", Name: "ayse", Bots: bots, BotName: names, Player: bot.NewB101()})
}
