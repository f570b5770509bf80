package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/okey-game/okey/docs"
	"github.com/okey-game/okey/engine"
)

// runRules is `okey help rules [PRESET]`: docs/rules.md, whole or the part
// common to every preset plus one preset's section (each preset's section
// is a "## " heading naming the preset in backquotes).
func runRules(args []string, stdout, stderr io.Writer) int {
	if len(args) > 1 {
		fmt.Fprintln(stderr, "usage: okey help rules [PRESET]")
		return 2
	}
	if len(args) == 0 {
		fmt.Fprint(stdout, docs.Rules)
		return 0
	}
	preset := args[0]
	known := false
	for _, p := range engine.Presets {
		known = known || p == preset
	}
	if !known {
		fmt.Fprintf(stderr, "okey: help rules: unknown preset %q (have %s)\n", preset, strings.Join(engine.Presets, ", "))
		return 2
	}
	for i, sec := range strings.SplitAfter(docs.Rules, "\n## ") {
		head, _, _ := strings.Cut(sec, "\n")
		preSection := strings.Contains(head, "`") // a preset's own section
		if i == 0 || !preSection || strings.Contains(head, "`"+preset+"`") {
			fmt.Fprint(stdout, strings.TrimSuffix(sec, "\n## "))
			fmt.Fprint(stdout, "\n\n")
			if i > 0 {
				continue
			}
		}
	}
	return 0
}
