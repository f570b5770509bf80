package ui

import "strings"

// fitParts shortens s to at most w cells by dropping its last parts,
// never a word's letters: first what follows the last "; " (a message's
// second thought: "next best: draw"), then what follows the last " · " (a
// line's least useful detail), as often as needed. A first part still
// wider than w is returned whole: put cuts it, and the screen tests say
// so.
func fitParts(s string, w int) string {
	for width(s) > w {
		i := strings.LastIndex(s, "; ")
		if i <= 0 {
			i = strings.LastIndex(s, " · ")
		}
		if i <= 0 {
			break
		}
		s = s[:i]
	}
	return s
}

// fitKeep is fitParts, except that keep (one of s's parts, " · " before
// it), when the cut would take it, stays: the parts before it go from their
// end instead (an ellipsis in their place), and the parts after it with
// them.
func fitKeep(s, keep string, w int) string {
	f := fitParts(s, w)
	i := strings.Index(s, " · "+keep)
	if keep == "" || i <= 0 || strings.Contains(f, keep) {
		return f
	}
	// "…" says that parts were left out between.
	tail := " · … · " + keep
	head := fitParts(s[:i], w-width(tail))
	if head == "" || width(head)+width(tail) > w {
		return f
	}
	return head + tail
}

// wrapAll wraps each of lines at spaces to w cells (wrap2), keeping empty
// lines.
func wrapAll(lines []string, w int) []string {
	var out []string
	for _, l := range lines {
		out = append(out, wrap2(l, w)...)
	}
	return out
}

// lost tells a screen that watches for cut text (the tests' screens) that
// s, due at (x, y), had no room at all: a panel ran out of rows.
func lost(scr interface{}, x, y int, s string) {
	if w, ok := scr.(cutWatcher); ok && strings.TrimSpace(s) != "" {
		w.cut(x, y, s, 0)
	}
}
