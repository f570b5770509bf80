package ui

import (
	"strings"
	"testing"
)

// TestKeyTablesDeclaredOnce: in each game's key table no key runs two
// bindings, the help writes every key that is not an alias (the names
// derived from the keys), and the table is not rebuilt when asked for.
func TestKeyTablesDeclaredOnce(t *testing.T) {
	for _, g := range games {
		p := g()
		seen := map[key]string{}
		for i := range p.keys() {
			b := &p.keys()[i]
			var names []string
			for _, k := range b.keys {
				if !k.alias {
					names = append(names, k.name())
				}
				if b.do == nil {
					continue
				}
				k.alias = false
				if other, ok := seen[k]; ok {
					t.Errorf("%s: %s runs both %q and %q", p.name(), k.name(), other, b.label)
				}
				seen[k] = b.label
			}
			if got := b.helpName(); got != strings.Join(names, " ") {
				t.Errorf("%s: help name %q", p.name(), got)
			}
		}
		if &p.keys()[0] != &g().keys()[0] {
			t.Errorf("%s: the key table is built anew", p.name())
		}
	}
}

// TestDisabledKeys: a move key off now says why (the dispatcher refuses
// with the binding's reason) and is not in the status bar; asked for a
// move, it is.
func TestDisabledKeys(t *testing.T) {
	s, _ := playedFixture(t)
	hs := newHarness(t, s, Palette256)
	bar := func() string { return screenLines(hs.scr)[23] }
	if strings.Contains(bar(), "d draw") {
		t.Errorf("draw in the bar with no move asked for: %q", bar())
	}
	hs.keys("d")
	if !hs.view.m.MsgBad || hs.view.Message() != "wait: the table is still working on the last move" {
		t.Errorf("d with no move asked for: %q", hs.view.Message())
	}
	hs.request()
	if !strings.Contains(bar(), "d draw") {
		t.Errorf("draw not in the bar on the player's move: %q", bar())
	}
	hs.view.Finish(&MatchEnd{})
	hs.view.overlay = noOverlay
	if why := moveOff(hs.view); why != "the match is over" {
		t.Errorf("a move after the match: %q", why)
	}
}

// TestConfirmAsksFirst: a binding with a question asks it before its
// action: any key but y leaves things as they were, y runs it.
func TestConfirmAsksFirst(t *testing.T) {
	hs := newHarness(t, fixture101(t), Palette256)
	ran := 0
	b := binding{keys: []key{rk('x')}, label: "discard", do: func(*TableView) { ran++ },
		confirm: func(*TableView) string { return "discard the okey?" }}
	hs.view.run(&b)
	hs.draw()
	if ran != 0 || hs.view.overlay != confirmOverlay || !strings.Contains(hs.screen(), "discard the okey?") ||
		!strings.Contains(hs.screen(), "y: yes   n: no") {
		t.Fatalf("no question asked (ran %d):\n%s", ran, hs.screen())
	}
	hs.keys("n")
	if ran != 0 || hs.view.overlay != noOverlay {
		t.Fatalf("n ran the action or left the question open")
	}
	hs.view.run(&b)
	hs.keys("y")
	if ran != 1 || hs.view.overlay != noOverlay {
		t.Fatalf("y: ran %d, overlay %d", ran, hs.view.overlay)
	}
}

// TestShortLabels: when the status bar does not fit, the keys with a short
// label use it.
func TestShortLabels(t *testing.T) {
	hs := newHarness(t, fixture101(t), Palette256)
	items := []barItem{{name: "a", label: strings.Repeat("long ", 10), short: "short"}, {name: "b", label: strings.Repeat("word ", 8)}}
	hs.scr.Clear()
	hs.view.drawBindings(hs.scr, 0, 0, 60, items)
	hs.scr.Show()
	if got := screenLines(hs.scr)[0]; !strings.Contains(got, "a short") || !strings.Contains(got, "b word") {
		t.Errorf("bar %q", got)
	}
	hs.scr.Clear()
	hs.view.drawBindings(hs.scr, 0, 0, 80, items[:1])
	hs.scr.Show()
	if got := screenLines(hs.scr)[0]; !strings.Contains(got, "a long") {
		t.Errorf("bar %q", got)
	}
}
