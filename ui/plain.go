package ui

import "strings"

// packages whose name prefixes library errors ("table: not a transcript").
var errPrefixes = map[string]bool{"table": true, "engine": true, "deck": true, "crypto": true, "okey": true,
	"p2p": true, "bot": true, "ui": true, "lobby": true, "mentalpoker": true, "invite": true, "lan": true}

// Plain is an error's message for a player: without the package prefixes
// that library errors carry ("table: ", "engine: ") and without a part
// repeated right after itself; a refused ruleset text is said in the
// current language.
func Plain(err error) string {
	if err == nil {
		return ""
	}
	parts := strings.Split(err.Error(), ": ")
	out := parts[:0]
	for _, p := range parts {
		if errPrefixes[strings.TrimSpace(p)] {
			continue
		}
		if n := len(out); n > 0 && out[n-1] == p {
			continue
		}
		out = append(out, p)
	}
	return plainRuleset(err, strings.Join(out, ": "))
}
