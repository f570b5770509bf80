package ui

import "github.com/okey-game/okey/ui/tablemodel"

// Plain is an error's message for a player (tablemodel.Plain).
func Plain(err error) string { return tablemodel.Plain(err) }
