// Package docs holds the player's documentation that the okey command
// shows: docs/rules.md and its Turkish docs/rules.tr.md, for `okey help
// rules`.
package docs

import _ "embed"

// Rules is docs/rules.md: the rules of each preset, in the project's words.
//
//go:embed rules.md
var Rules string

// RulesTR is docs/rules.tr.md: the same rules in Turkish, section by
// section (each preset's section names the preset in backquotes).
//
//go:embed rules.tr.md
var RulesTR string
