package ui

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/okey-game/okey/chat"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/ui/tablemodel"
)

// The table's chat (protocol.md 7.13): at a table played over the network
// the screen keeps a chat line of its own, over the links line, with the
// latest message; each message goes to the log too. chatKey opens the
// chat's panel: a quick message by its digit (so nobody must type), enter
// to type one's own words, m to mute or unmute a player (a muted player's
// messages are hidden from this player alone).
//
// The key is '/': t and c are the games' keys already, and '/' is the
// terminal's usual way into a chat or a command line (IRC, game
// consoles); being no letter, it means the same in English and Turkish and
// no word of either language's key names claims it.
const chatKey = '/'

// quickMessages are the quick messages by their protocol numbers (1..9).
var quickMessages = tablemodel.QuickMessages

// quickText is quick message n in the reader's language.
func quickText(n int) string { return tablemodel.QuickText(n) }

// ChatMember is one of the table's members as the chat names them, in
// roster order.
type ChatMember = tablemodel.ChatMember

// ChatLine is one chat message accepted at the table.
type ChatLine = tablemodel.ChatLine

// ChatSendFunc posts a quick message (quick > 0) or a text.
type ChatSendFunc = tablemodel.ChatSendFunc

// chatMode is what the chat's keys do now.
type chatMode int

const (
	chatClosed chatMode = iota
	chatMenu            // the panel: quick messages, enter, m
	chatTyping          // the chat line is an input
	chatMuting          // the panel lists the players to mute
)

// chatState is a table's chat at this screen.
type chatState struct {
	send    ChatSendFunc
	members []ChatMember
	muted   map[string]bool // peer ids
	mode    chatMode
	input   []rune
	last    string // the chat line: the latest message shown
	// shown are the log lines of each member's messages, so that muting
	// takes them off the log too.
	shown map[string][]Line
}

// enableChat gives the table a chat: members in roster order, send posts.
func (t *TableView) enableChat(members []ChatMember, send ChatSendFunc) {
	if t.chat == nil {
		t.chat = &chatState{muted: map[string]bool{}, shown: map[string][]Line{}}
	}
	t.chat.members, t.chat.send = members, send
}

// addChat shows an accepted message: on the chat line and in the log,
// unless its author is muted here.
func (t *TableView) addChat(l ChatLine) {
	c := t.chat
	if c == nil || c.muted[l.ID] && !l.Own {
		return
	}
	s := l.Reads()
	c.last = s
	line := Line{txt(i18n.T("chat · %s", s))}
	c.shown[l.ID] = append(c.shown[l.ID], line)
	t.m.Log = append(t.m.Log, line)
}

// chatFailed says why a message was not sent.
func (t *TableView) chatFailed(err error) {
	if errors.Is(err, chat.ErrTooFast) {
		t.refuse(i18n.T("wait a moment before sending more"))
		return
	}
	t.refuse(i18n.T("the message was not sent: %s", Explain(err)))
}

// sendChat posts a message and closes the chat's panel.
func (t *TableView) sendChat(quick int, text string) {
	c := t.chat
	c.mode, c.input = chatClosed, nil
	if err := c.send(quick, text); err != nil {
		t.chatFailed(err)
		return
	}
	t.say("")
}

// toggleMute mutes or unmutes a member: a muted member's messages leave
// the log and the chat line, and new ones are not shown.
func (t *TableView) toggleMute(m ChatMember) {
	c := t.chat
	if c.muted[m.ID] {
		delete(c.muted, m.ID)
		t.say(i18n.T("%s is no longer muted", m.Name))
		return
	}
	c.muted[m.ID] = true
	hide := map[*Span]bool{}
	for _, l := range c.shown[m.ID] {
		hide[&l[0]] = true
		if c.last != "" && strings.HasSuffix(l[0].Text, c.last) {
			c.last = ""
		}
	}
	delete(c.shown, m.ID)
	kept := t.m.Log[:0:0]
	for _, l := range t.m.Log {
		if len(l) == 0 || !hide[&l[0]] {
			kept = append(kept, l)
		}
	}
	t.m.Log = kept
	t.say(i18n.T("%s is muted: you no longer see their messages (again / m to unmute)", m.Name))
}

// others are the members this player may mute.
func (c *chatState) others() []ChatMember {
	var out []ChatMember
	for _, m := range c.members {
		if !m.Self {
			out = append(out, m)
		}
	}
	return out
}

// chatKeyEvent handles ev when the chat takes it: the chat key (on the
// table, no panel up), or any key while its panel or input is open.
func (t *TableView) chatKeyEvent(ev *tcell.EventKey) bool {
	c := t.chat
	if c == nil {
		return false
	}
	if ev.Key() == tcell.KeyCtrlC {
		c.mode, c.input = chatClosed, nil
		return false // it asks to leave, as everywhere
	}
	switch c.mode {
	case chatClosed:
		if t.overlay != noOverlay || ev.Key() != tcell.KeyRune || ev.Rune() != chatKey {
			return false
		}
		c.mode = chatMenu
		return true
	case chatMenu:
		switch {
		case ev.Key() == tcell.KeyEscape || ev.Key() == tcell.KeyRune && ev.Rune() == chatKey:
			c.mode = chatClosed
		case ev.Key() == tcell.KeyEnter:
			c.mode, c.input = chatTyping, nil
		case ev.Key() == tcell.KeyRune && ev.Rune() == 'm':
			c.mode = chatMuting
		case ev.Key() == tcell.KeyRune && ev.Rune() >= '1' && ev.Rune() <= rune('0'+len(quickMessages)):
			t.sendChat(int(ev.Rune()-'0'), "")
		}
		return true
	case chatMuting:
		others := c.others()
		switch {
		case ev.Key() == tcell.KeyEscape:
			c.mode = chatMenu
		case ev.Key() == tcell.KeyRune && ev.Rune() >= '1' && int(ev.Rune()-'1') < len(others):
			t.toggleMute(others[ev.Rune()-'1'])
			c.mode = chatClosed
		}
		return true
	case chatTyping:
		switch ev.Key() {
		case tcell.KeyEscape:
			c.mode, c.input = chatClosed, nil
		case tcell.KeyEnter:
			text := chat.Clean(string(c.input))
			if text == "" {
				c.mode, c.input = chatClosed, nil
				return true
			}
			t.sendChat(0, text)
		case tcell.KeyBackspace, tcell.KeyBackspace2:
			if len(c.input) > 0 {
				c.input = c.input[:len(c.input)-1]
			}
		case tcell.KeyRune:
			if utf8.RuneLen(ev.Rune()) > 0 && len(c.input) < chat.MaxTextRunes && len(string(c.input))+utf8.RuneLen(ev.Rune()) <= chat.MaxText {
				c.input = append(c.input, ev.Rune())
			}
		}
		return true
	}
	return false
}

// fitWords shortens s to w cells at a word's end, with "…" when it lost
// words: a long message never shows a cut word.
func fitWords(s string, w int) string {
	if width(s) <= w {
		return s
	}
	words := strings.Fields(s)
	out := ""
	for _, wd := range words {
		next := wd
		if out != "" {
			next = out + " " + wd
		}
		if width(next)+1 > w {
			break
		}
		out = next
	}
	return out + "…"
}

// drawChat draws the chat line at row y and, while it is open, the chat's
// panel over the table above the rack (rows y0 to rackY).
func (t *TableView) drawChat(scr tcell.Screen, x, y, w int) {
	c := t.chat
	p := t.pal
	dim := tcell.StyleDefault.Background(p.Felt).Foreground(p.Dim)
	key := dim.Foreground(p.Accent).Bold(true)
	cx := x + 1
	room := w - 2
	if c.mode == chatTyping {
		label := i18n.T("say:") + " "
		hint := "  " + i18n.T("enter sends · esc cancels")
		cx = put(scr, cx, y, room, label, key)
		in := string(c.input) + "▏"
		left := x + w - 1 - cx - width(hint)
		if left < 10 {
			hint, left = "", x+w-1-cx
		}
		// The input's end stays in sight as it grows.
		for width(in) > left {
			_, size := utf8.DecodeRuneInString(in)
			in = in[size:]
		}
		cx = put(scr, cx, y, left, in, dim.Foreground(p.Text))
		put(scr, cx, y, x+w-1-cx, hint, dim)
		return
	}
	label := string(chatKey) + " " + i18n.T("chat")
	cx = put(scr, cx, y, room, label, key)
	cx++
	text := c.last
	if text == "" {
		text = i18n.T("quick messages, or your own words")
	}
	put(scr, cx, y, x+w-1-cx, fitWords(text, x+w-1-cx), dim)
}

// drawChatPanel draws the chat's panel (its menu, or the players to mute)
// in the area (x, y, w, h).
func (t *TableView) drawChatPanel(scr tcell.Screen, x, y, w, h int) {
	c := t.chat
	if c == nil || c.mode != chatMenu && c.mode != chatMuting {
		return
	}
	var lines []helpLine
	title := i18n.T("chat")
	if c.mode == chatMenu {
		for i := range quickMessages {
			lines = append(lines, helpLine{string(rune('1' + i)), quickText(i + 1)})
		}
		lines = append(lines,
			helpLine{keyName("enter"), i18n.T("type your own words")},
			helpLine{"m", i18n.T("mute or unmute a player")},
			helpLine{"esc", i18n.T("close")})
	} else {
		title = i18n.T("mute a player")
		for i, m := range c.others() {
			v := m.Name
			if c.muted[m.ID] {
				v = i18n.T("%s (muted: again to unmute)", m.Name)
			}
			lines = append(lines, helpLine{string(rune('1' + i)), v})
		}
		lines = append(lines, helpLine{"esc", i18n.T("back")})
	}
	pw := width(title) + 2
	for _, l := range lines {
		pw = max(pw, width(l.k)+1+width(l.v))
	}
	pw = min(pw+4, w)
	ph := min(len(lines)+2, h)
	ix, iy, iw, ih := t.panel(scr, x+w-pw, y, pw, ph, title)
	st := tcell.StyleDefault.Background(t.pal.Overlay).Foreground(t.pal.Text)
	keySt := st.Foreground(t.pal.Accent).Bold(true)
	for i, l := range lines {
		if i >= ih {
			lost(scr, ix, iy+i, l.v)
			return
		}
		kx := put(scr, ix, iy+i, iw, l.k, keySt)
		put(scr, kx+1, iy+i, iw-(kx+1-ix), l.v, st)
	}
}

// withChatHelp adds the chat key's line to the help's lines (a table with
// a chat) when the panel (iw x ih) has a row left for it: the chat line
// names its key anyway.
func (t *TableView) withChatHelp(page helpPage, lines []helpLine, iw, ih int) []helpLine {
	if t.chat == nil {
		return lines
	}
	l := helpLine{string(chatKey), i18n.T("chat: quick messages by their digit, your own words, mute a player")}
	if helpRows(t.pal.Mono, page, append(lines[:len(lines):len(lines)], l), iw) > ih {
		return lines
	}
	return append(lines, l)
}

// helpRows is how many rows drawHelp takes for lines.
func helpRows(mono bool, page helpPage, lines []helpLine, iw int) int {
	rows := 0
	for _, l := range lines {
		kw, gap := max(page.keyWidth, width(l.k)), 1
		if mono {
			kw, gap = page.keyWidth-1, 2
			if width(l.k) > kw {
				rows++
			}
		}
		if !page.wrap {
			rows++
			continue
		}
		rows += len(wrap2(l.v, iw-kw-gap))
	}
	return rows
}

// SetChat gives the table a chat (a table played over the network): its
// members in roster order and the function that posts (called off the
// screen's goroutine: it may wait on the network).
func (g *Game) SetChat(members []ChatMember, send ChatSendFunc) {
	members = append([]ChatMember(nil), members...)
	g.post(func() {
		g.view.enableChat(members, func(quick int, text string) error {
			go func() {
				if err := send(quick, text); err != nil {
					g.post(func() { g.view.chatFailed(err) })
				}
			}()
			return nil
		})
	})
}

// Chat shows a chat message accepted at the table.
func (g *Game) Chat(l ChatLine) { g.post(func() { g.view.addChat(l) }) }

// PasteHandler implements tview.Primitive: a text pasted while typing a
// chat message is added to it (its line breaks as spaces, cut to the
// message's bounds); elsewhere at the table a paste does nothing.
func (t *TableView) PasteHandler() func(string, func(tview.Primitive)) {
	return t.WrapPasteHandler(func(text string, _ func(tview.Primitive)) { t.pasteChat(text) })
}

// pasteChat adds text to the chat's input, when it is open.
func (t *TableView) pasteChat(text string) {
	c := t.chat
	if c == nil || c.mode != chatTyping {
		return
	}
	c.input = []rune(chat.Clean(string(c.input) + text))
}
