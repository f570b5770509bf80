package ui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/okey-game/okey/internal/i18n"
)

// Choice is one answer of a question screen: a key and what it does.
type Choice struct {
	Key   rune
	Label string
}

// ChooseView is a question screen before the table: a title, a few lines,
// and answers by key (or a click on an answer). Esc, q and ctrl-c answer -1.
type ChooseView struct {
	*tview.Box
	g       *Game
	title   string
	lines   []string
	choices []Choice
	opt     ChooseOptions
	answer  func(int)
	regions []region
	done    bool
}

// ChooseOptions tunes a question screen.
type ChooseOptions struct {
	// NoEnter: enter takes no answer (each answer by its own key), for a
	// question whose first answer must not be taken by accident.
	NoEnter bool
	// Quit is what esc and q do, shown at the bottom (default "leave").
	Quit string
}

// Choose shows a question screen and calls answer (off the UI goroutine)
// with the index of the choice taken, or -1 when the player leaves. Enter
// takes the first choice.
func (g *Game) Choose(title string, lines []string, choices []Choice, answer func(int)) {
	g.ChooseWith(title, lines, choices, ChooseOptions{}, answer)
}

// ChooseWith is Choose with options.
func (g *Game) ChooseWith(title string, lines []string, choices []Choice, opt ChooseOptions, answer func(int)) {
	c := &ChooseView{Box: tview.NewBox(), g: g, title: title, lines: lines, choices: choices, opt: opt}
	c.answer = func(i int) {
		if c.done {
			return
		}
		c.done = true
		go answer(i)
	}
	g.post(func() { g.app.SetRoot(c, true) })
}

// Key handles a key press.
func (c *ChooseView) Key(ev *tcell.EventKey) {
	if ev.Key() == tcell.KeyEscape || ev.Key() == tcell.KeyCtrlC || (ev.Key() == tcell.KeyRune && ev.Rune() == 'q') {
		c.answer(-1)
		return
	}
	if ev.Key() == tcell.KeyEnter && len(c.choices) > 0 && !c.opt.NoEnter {
		c.answer(0)
		return
	}
	for i, ch := range c.choices {
		if ev.Key() == tcell.KeyRune && ev.Rune() == ch.Key {
			c.answer(i)
			return
		}
	}
}

// InputHandler implements tview.Primitive.
func (c *ChooseView) InputHandler() func(*tcell.EventKey, func(tview.Primitive)) {
	return c.WrapInputHandler(func(ev *tcell.EventKey, _ func(tview.Primitive)) { c.Key(ev) })
}

// MouseHandler implements tview.Primitive: a click on an answer takes it.
func (c *ChooseView) MouseHandler() func(tview.MouseAction, *tcell.EventMouse, func(tview.Primitive)) (bool, tview.Primitive) {
	return c.WrapMouseHandler(func(action tview.MouseAction, ev *tcell.EventMouse, _ func(tview.Primitive)) (bool, tview.Primitive) {
		if action != tview.MouseLeftClick {
			return false, nil
		}
		x, y := ev.Position()
		for i, r := range c.regions {
			if x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+max(r.h, 1) {
				c.answer(i)
			}
		}
		return true, nil
	})
}

// Draw implements tview.Primitive.
func (c *ChooseView) Draw(scr tcell.Screen) {
	c.Box.DrawForSubclass(scr, c)
	x, y, w, h := c.GetRect()
	p := PaletteFor(scr.Colors())
	if c.g != nil && c.g.view.palFixed {
		p = c.g.view.pal
	}
	felt := tcell.StyleDefault.Background(p.Felt).Foreground(p.Text)
	fill(scr, x, y, w, h, felt)
	// Lines and answers wrap at spaces inside the panel, never cut; an
	// answer's next lines go under its text, right of its key.
	pw := min(w-4, 90)
	lines := wrapAll(c.lines, pw-4)
	labels := make([][]string, len(c.choices))
	n := len(lines)
	for i, ch := range c.choices {
		labels[i] = wrap2(ch.Label, pw-4-3)
		n += len(labels[i])
	}
	ph := min(h, n+5)
	tv := &TableView{pal: p}
	ix, iy, iw, ih := tv.panel(scr, x+(w-pw)/2, y+(h-ph)/2, pw, ph, c.title)
	st := tcell.StyleDefault.Background(p.Overlay).Foreground(p.Text)
	row := iy
	for _, l := range lines {
		if row >= iy+ih {
			lost(scr, ix, row, l)
			continue
		}
		put(scr, ix, row, iw, l, st)
		row++
	}
	row++
	c.regions = c.regions[:0]
	for i, ch := range c.choices {
		put(scr, ix, row, iw, string(ch.Key), st.Foreground(p.Accent).Bold(true))
		end := ix
		for j, l := range labels[i] {
			if row+j >= iy+ih {
				lost(scr, ix+3, row+j, l)
				continue
			}
			end = max(end, put(scr, ix+3, row+j, iw-3, l, st))
		}
		c.regions = append(c.regions, region{x: ix, y: row, w: end - ix, h: len(labels[i])})
		row += len(labels[i])
	}
	quit := i18n.T("q  leave")
	if c.opt.Quit != "" {
		quit = "q  " + c.opt.Quit
	}
	put(scr, ix, row, iw, quit, st.Foreground(p.Dim))
}
