package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/internal/i18n"
)

// noColour is a screen that shows no colour, as tcell's is under NO_COLOR
// (and records the text cut or lost, as cutScreen does).
type noColour struct{ *cutScreen }

func (noColour) Colors() int { return 0 }

// TestHelpKeysStandApartWithoutColour: on a screen without colour the
// help's key names stand apart from their text by layout: every key row
// has its name, at least two spaces, then its text, the texts in one
// column (in 101 "arrows home end move the cursor on the rack" read as
// one run: the name's colour alone set it apart), and every line still
// fits the panel; classic and 101, English and Turkish, at 80x24 and
// 120x36.
func TestHelpKeysStandApartWithoutColour(t *testing.T) {
	games := []struct {
		name string
		snap func(t *testing.T) *Snapshot
	}{
		{"classic", func(t *testing.T) *Snapshot { s, _ := playedFixture(t); return s }},
		{"101", func(t *testing.T) *Snapshot { return fixture101(t, "timer=60") }},
	}
	for _, g := range games {
		for _, lang := range i18n.Langs {
			for _, sz := range [][2]int{{80, 24}, {120, 36}} {
				t.Run(fmt.Sprintf("%s-%s-%dx%d", g.name, lang, sz[0], sz[1]), func(t *testing.T) {
					i18n.Set(lang)
					t.Cleanup(func() { i18n.Set(i18n.English) })
					sim := tcell.NewSimulationScreen("UTF-8")
					if err := sim.Init(); err != nil {
						t.Fatal(err)
					}
					t.Cleanup(sim.Fini)
					sim.SetSize(sz[0], sz[1])
					scr := noColour{&cutScreen{SimulationScreen: sim}}
					v := NewTableView(func() {})
					v.SetRect(0, 0, sz[0], sz[1])
					v.Update(g.snap(t), nil, nil)
					v.Key(tcell.NewEventKey(tcell.KeyRune, '?', tcell.ModNone))
					v.Draw(scr)
					sim.Show()
					if !v.pal.Mono {
						t.Fatal("a screen of 0 colours did not get the palette without colour")
					}
					var names []string
					for _, b := range v.game().keys() {
						if b.help != "" {
							names = append(names, b.helpName())
						}
					}
					for _, l := range v.game().help(v).lines {
						if l.k != "" {
							names = append(names, l.k)
						}
					}
					lines := screenLines(sim)
					col, seen := -1, 0
					for _, l := range lines {
						in, ok := strings.CutPrefix(l, "│ ")
						if !ok {
							continue
						}
						in = strings.TrimRight(strings.TrimSuffix(strings.TrimRight(in, " "), "│"), " ")
						for _, k := range names {
							rest, ok := strings.CutPrefix(in, k)
							if !ok || rest != "" && !strings.HasPrefix(rest, " ") {
								continue
							}
							seen++
							if strings.TrimSpace(rest) == "" {
								break // the name has its row to itself
							}
							if !strings.HasPrefix(rest, "  ") {
								t.Errorf("the key name %q runs into its text: %q", k, in)
							}
							c := len([]rune(in)) - len([]rune(strings.TrimLeft(rest, " ")))
							if col >= 0 && c != col {
								t.Errorf("the text of %q starts at column %d, the others' at %d", k, c, col)
							}
							col = c
							break
						}
					}
					for _, c := range scr.cuts {
						t.Error(c)
					}
					if seen != len(names) {
						t.Errorf("%d of the help's %d key names found:\n%s", seen, len(names), strings.Join(lines, "\n"))
					}
				})
			}
		}
	}
}
