package docs

import (
	"embed"
	"strings"
)

// The commands' help texts, what okey COMMAND -h prints before the
// command's flags: help/COMMAND.txt in English, help/COMMAND.tr.txt in
// Turkish, each a whole document (the synopsis, then the command's manual)
// as it prints, with no format verbs. They are documents rather than
// catalogue entries for the reason rules.md is: a translator reads and
// writes a page at a time, and a 50-line entry of the message catalogue
// is one Go string of escaped lines that no one can review. What a
// command adds to its text (the bot levels, arena's strategies, the flags
// and their one-line descriptions) it prints itself, through the
// catalogue.
//
//go:embed help/*.txt
var help embed.FS

// Help is the help text of the okey command called command in lang ("en"
// or "tr"; English when the language has none), "" for a command without
// one.
func Help(command, lang string) string {
	if lang != "en" {
		if b, err := help.ReadFile("help/" + command + "." + lang + ".txt"); err == nil {
			return string(b)
		}
	}
	b, err := help.ReadFile("help/" + command + ".txt")
	if err != nil {
		return ""
	}
	return string(b)
}

// HelpCommands lists the commands that have a help text, in order.
func HelpCommands() []string {
	entries, _ := help.ReadDir("help")
	var out []string
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".txt")
		if ok && !strings.Contains(name, ".") {
			out = append(out, name)
		}
	}
	return out
}
