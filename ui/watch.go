package ui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui/tablemodel"
)

// The spectator's screen (okey watch): a replay that grows as the table
// plays. Each frame is what a kibitzer standing behind no one may see: the
// indicator, every discard pile, the stock, 101's melds, the scores and the
// log, and of a rack only what the table opened in public, until the hand's
// audit makes every tile public: then that hand's frames show every rack,
// with the hand's result. The frames are the replay's (LoadReplay's), drawn
// by the games' parts (drawReplay), so the spectator sees the table the way
// okey replay shows it afterwards.

// WatchFeed turns a spectator's steps into replay frames. It is used from
// the spectator's goroutine only (table.SpectatorConfig.OnStep); what it
// returns goes to the screen through WatchView.Add.
type WatchFeed struct {
	prev    *Snapshot
	audited int
}

// WatchUpdate is what one step adds to the screen: a frame (nil when the
// step shows nothing new) and the hands whose audit came with it.
type WatchUpdate struct {
	Frame   *Frame
	Audited []table.HandLog
	Step    uint32 // the machine's step after it
	// Chat, when set, is a chat message read from the members (protocol.md
	// 7.13), and the update carries nothing else.
	Chat *ChatLine
}

// Step makes the update of the step the machine just applied.
func (f *WatchFeed) Step(m *table.Machine) WatchUpdate {
	u := WatchUpdate{Step: m.Step()}
	if hs := m.Hands(); len(hs) > f.audited {
		u.Audited = hs[f.audited:]
		f.audited = len(hs)
	}
	cur := TakeSnapshot(m, nil, table.NoSeat)
	if tablemodel.Game(cur) == "" {
		return u
	}
	lines, end := Events(f.prev, cur)
	f.prev = cur
	if len(lines) == 0 && end == nil {
		return u
	}
	hand := tablemodel.HandNumber(cur)
	if end != nil {
		hand = end.Hand
	}
	u.Frame = &Frame{Step: int(m.Step()) - 1, Hand: int(hand), Match: cur.Match, Match101: cur.Match101, Lines: lines, End: end}
	return u
}

// WatchView shows a table live to a spectator: the latest frame, or an
// earlier one the spectator stepped back to (the replay's keys; End follows
// the table again).
type WatchView struct {
	*ReplayView
	follow bool
	step   uint32
	end    *table.Report // the verdict, once the spectator stopped
	why    string        // how the watch ended, when not by the verdict
	chat   string        // the latest chat message (chat.go), on the status line

	// tables lists the other tables to watch (the w key; nil: no w), and
	// switchTo is called with the one chosen from pick's list.
	tables   func() []WatchTable
	switchTo func(id string)
	pick     *ChooseView
	picks    []WatchTable
	msg      string // a transient note on the status line (no table to switch to)
}

// WatchTable is a started table a spectator may switch to: its id and the
// line that shows it in the list (as the lobby's row).
type WatchTable struct {
	ID, Label string
}

// maxWatchTables is how many tables the w list offers (keys 1-9).
const maxWatchTables = 9

// SetTables lets w list the tables list returns; choosing one calls
// switchTo with its id (Esc keeps the current table).
func (v *WatchView) SetTables(list func() []WatchTable, switchTo func(id string)) {
	v.tables, v.switchTo = list, switchTo
}

// tablesKey is w: the list of the other tables, or a note that there is
// none.
func (v *WatchView) tablesKey() {
	ts := v.tables()
	if len(ts) == 0 {
		v.msg = i18n.T("no other started table to watch now")
		return
	}
	v.msg = ""
	if len(ts) > maxWatchTables {
		ts = ts[:maxWatchTables]
	}
	v.picks = ts
	choices := make([]Choice, len(ts))
	for i, t := range ts {
		choices[i] = Choice{Key: rune('1' + i), Label: t.Label}
	}
	c := &ChooseView{Box: tview.NewBox(), title: i18n.T("watch another table"), choices: choices,
		lines: []string{i18n.T("Choosing a table leaves this one (okey watch with the same --data resumes it)."), ""},
		opt:   ChooseOptions{Quit: i18n.T("keep watching this table")}}
	c.answer = func(i int) {
		v.pick = nil
		if i >= 0 && i < len(v.picks) {
			v.switchTo(v.picks[i].ID)
		}
	}
	v.pick = c
}

// NewWatchView makes the screen of a table with these seat names and
// ruleset; quit is called on q.
func NewWatchView(names []string, ruleset string, quit func()) *WatchView {
	r := &Replay{Names: names, Ruleset: ruleset, Report: &table.Report{}}
	return &WatchView{ReplayView: NewReplayView(r, quit), follow: true}
}

// Add takes an update (call it on the UI goroutine).
func (v *WatchView) Add(u WatchUpdate) {
	if u.Chat != nil {
		v.chat = u.Chat.Reads()
		return
	}
	v.step = u.Step
	for _, hl := range u.Audited {
		all := engine.NewView(table.NoSeat)
		for s, j := range hl.Tiles {
			all.Learn(engine.Slot(s), engine.Tile(j).Face())
		}
		for i := range v.r.Frames {
			if v.r.Frames[i].Hand == int(hl.Hand) {
				v.r.Frames[i].All = all
			}
		}
	}
	if u.Frame != nil {
		v.r.Frames = append(v.r.Frames, *u.Frame)
		if v.follow {
			v.at = len(v.r.Frames) - 1
		}
	}
}

// End shows how the watch ended: the transcript's verdict, or (rep nil)
// why it stopped.
func (v *WatchView) End(rep *table.Report, why string) {
	v.end, v.why = rep, why
	if rep != nil {
		v.r.Report = rep
	}
}

// Frames is the number of frames so far.
func (v *WatchView) Frames() int { return len(v.r.Frames) }

// InputHandler implements tview.Primitive: the replay's keys; End (or
// stepping to the last frame) follows the table again.
func (v *WatchView) InputHandler() func(*tcell.EventKey, func(tview.Primitive)) {
	return v.WrapInputHandler(func(ev *tcell.EventKey, _ func(tview.Primitive)) {
		if v.pick != nil {
			v.pick.Key(ev)
			return
		}
		if v.tables != nil && ev.Key() == tcell.KeyRune && ev.Rune() == 'w' {
			v.tablesKey()
			return
		}
		if len(v.r.Frames) == 0 {
			if ev.Rune() == 'q' || ev.Key() == tcell.KeyEscape || ev.Key() == tcell.KeyCtrlC {
				v.quit()
			}
			return
		}
		v.Key(ev)
		v.follow = v.at == len(v.r.Frames)-1
	})
}

// Draw implements tview.Primitive: the replay's frame, with the header
// and the two bottom lines of a live table.
func (v *WatchView) Draw(scr tcell.Screen) {
	x, y, w, h := v.GetRect()
	if v.pick != nil && w >= MinWidth && h >= MinHeight {
		v.pick.SetRect(x, y, w, h)
		v.pick.Draw(scr)
		return
	}
	if len(v.r.Frames) == 0 || w < MinWidth || h < MinHeight {
		v.Box.DrawForSubclass(scr, v)
		if !v.palFixed {
			v.pal = PaletteFor(scr.Colors())
		}
		felt := tcell.StyleDefault.Background(v.pal.Felt).Foreground(v.pal.Text)
		fill(scr, x, y, w, h, felt)
		if w < MinWidth || h < MinHeight {
			put(scr, x, y, w, i18n.T("okey needs %dx%d, this terminal is %dx%d", MinWidth, MinHeight, w, h), felt.Foreground(v.pal.Bad))
			return
		}
		put(scr, x+1, y+1, w-2, i18n.T("okey watch · %s · catching up with the table (message %d)", RulesetName(v.r.Ruleset), v.step), felt.Bold(true))
		v.footer(scr, x, y, w, h)
		return
	}
	v.ReplayView.Draw(scr)
	p := v.pal
	bar := tcell.StyleDefault.Background(p.Ledge).Foreground(p.Text)
	f := v.r.Frames[v.at]
	fill(scr, x, y, w, 1, bar)
	state := i18n.T("live")
	switch {
	case !v.follow:
		state = i18n.T("back %d", len(v.r.Frames)-1-v.at)
	case v.end != nil || v.why != "":
		state = i18n.T("ended")
	}
	put(scr, x+1, y, w-2, i18n.T("okey watch · %s · %s %d · message %d · %s", RulesetName(v.r.Ruleset), v.handWord(f), f.Hand+1, f.Step, state), bar.Bold(true))
	v.footer(scr, x, y, w, h)
}

func (v *WatchView) handWord(f Frame) string {
	if f.Match101 != nil {
		return i18n.T("round")
	}
	return i18n.T("hand")
}

// footer draws the status line (what a spectator sees, or the verdict) and
// the keys.
func (v *WatchView) footer(scr tcell.Screen, x, y, w, h int) {
	p := v.pal
	felt := tcell.StyleDefault.Background(p.Felt).Foreground(p.Text)
	bar := tcell.StyleDefault.Background(p.Ledge).Foreground(p.Text)
	fill(scr, x, y+h-2, w, 1, felt)
	switch {
	case v.end != nil:
		put(scr, x+1, y+h-2, w-2, Verdict(v.end), felt.Foreground(verdictColour(p, v.end.Status())).Bold(true))
	case v.why != "":
		put(scr, x+1, y+h-2, w-2, v.why, felt.Foreground(p.Bad).Bold(true))
	case v.msg != "":
		put(scr, x+1, y+h-2, w-2, v.msg, felt.Foreground(p.Bad))
	case v.chat != "":
		put(scr, x+1, y+h-2, w-2, fitWords(i18n.T("chat · %s", v.chat), w-2), felt.Foreground(p.Dim))
	default:
		put(scr, x+1, y+h-2, w-2, i18n.T("watching: racks stay hidden until each hand's audit"), felt.Foreground(p.Dim))
	}
	fill(scr, x, y+h-1, w, 1, bar)
	keys := i18n.T("left/p back  right/n next  end live  up/down hands  q leave")
	if v.tables != nil {
		keys = i18n.T("left/p back  right/n next  end live  up/down hands  w tables  q leave")
	}
	put(scr, x+1, y+h-1, w-2, keys, bar)
}

// RunWatch shows a spectator's screen until the player quits (q) or
// chooses another table from tables' list (w; nil tables: no w): then it
// returns that table's id. updates receives the updates (from any
// goroutine: they are queued to the screen) and ended how the watch ended.
func RunWatch(names []string, ruleset string, o Options, updates <-chan WatchUpdate, ended <-chan WatchEnd, tables func() []WatchTable) (switchTo string, err error) {
	app := tview.NewApplication()
	if o.Screen != nil {
		app.SetScreen(o.Screen)
	}
	v := NewWatchView(names, ruleset, app.Stop)
	if tables != nil {
		v.SetTables(tables, func(id string) { switchTo = id; app.Stop() })
	}
	if o.Palette != nil {
		v.SetPalette(*o.Palette)
	}
	app.SetRoot(v, true)
	done := make(chan struct{})
	defer close(done)
	FollowWatch(updates, ended, func(u WatchUpdate) { app.QueueUpdateDraw(func() { v.Add(u) }) },
		func(e WatchEnd) { app.QueueUpdateDraw(func() { v.End(e.Report, e.Why) }) }, done)
	err = app.Run()
	return switchTo, err
}

// WatchEnd is how a watch ended: a verdict, or why it stopped.
type WatchEnd struct {
	Report *table.Report
	Why    string
}

// FollowWatch hands a watch's updates to add and its end to end, on a
// goroutine of its own, until done is closed: the terminal's spectator
// screen (RunWatch) and a spectator's web page take a watch this way.
func FollowWatch(updates <-chan WatchUpdate, ended <-chan WatchEnd, add func(WatchUpdate), end func(WatchEnd), done <-chan struct{}) {
	go func() {
		for {
			select {
			case u, ok := <-updates:
				if !ok {
					updates = nil
					continue
				}
				add(u)
			case e := <-ended:
				end(e)
				ended = nil
			case <-done:
				return
			}
		}
	}()
}
