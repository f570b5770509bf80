// Package docs holds the player's documentation that the okey command
// shows: docs/rules.md, for `okey help rules`.
package docs

import _ "embed"

// Rules is docs/rules.md: the rules of each preset, in the project's words.
//
//go:embed rules.md
var Rules string
