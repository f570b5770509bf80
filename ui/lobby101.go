package ui

import (
	"slices"

	"github.com/okey-game/okey/engine"
)

// lobbyPresets are the games the lobby's create form offers: the classic
// presets, then Okey 101.
var lobbyPresets = append(slices.Clone(engine.Presets), engine.Preset101)
