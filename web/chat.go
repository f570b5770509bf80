package web

import (
	"errors"
	"slices"
	"unicode/utf8"

	"github.com/okey-game/okey/chat"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/ui/tablemodel"
)

// The table's chat on the page (protocol.md 7.13), as the terminal's chat
// line and panel have it (ui/chat.go): at a table played over the network
// the page shows the latest messages, the quick messages by their numbers
// in the reader's language, an input for one's own words, and a toggle per
// player to mute them (a muted player's messages are hidden from this
// player alone). Each message goes to the log too. A table against bots
// on this computer has no chat: the state has none and the page shows no
// panel.
//
// The page's commands: {"op":"chat","quick":N} posts quick message N,
// {"op":"chat","text":"…"} a text, {"op":"mute","member":"<peer id>"}
// mutes or unmutes a member. Bad input is refused on the message line and
// changes nothing.

// chatKept is how many messages the page is sent (the latest).
const chatKept = 50

// webChat is a table's chat at this page; the model's goroutine owns it.
type webChat struct {
	members []tablemodel.ChatMember
	send    tablemodel.ChatSendFunc
	muted   map[string]bool // peer ids
	lines   []tablemodel.ChatLine
	// logged are the log lines of each member's messages, so that muting
	// takes them off the log too.
	logged map[string][]*tablemodel.Span
}

// SetChat gives the table a chat (a table played over the network): its
// members in roster order and the function that posts (called off the
// model's goroutine: it may wait on the network).
func (g *Game) SetChat(members []tablemodel.ChatMember, send tablemodel.ChatSendFunc) {
	members = slices.Clone(members)
	g.post(func() {
		c := g.chatOn()
		c.members, c.send = members, send
	})
}

// chatOn is the table's chat, made on its first use: a message may come
// before SetChat (the peer follows the chat before it gives the sender).
func (g *Game) chatOn() *webChat {
	if g.chat == nil {
		g.chat = &webChat{muted: map[string]bool{}, logged: map[string][]*tablemodel.Span{}}
	}
	return g.chat
}

// Chat shows a chat message accepted at the table.
func (g *Game) Chat(l tablemodel.ChatLine) { g.post(func() { g.addChat(l) }) }

// addChat keeps an accepted message for the page and puts it in the log,
// unless its author is muted here.
func (g *Game) addChat(l tablemodel.ChatLine) {
	c := g.chatOn()
	if c.muted[l.ID] && !l.Own {
		return
	}
	c.lines = append(c.lines, l)
	if len(c.lines) > chatKept {
		c.lines = slices.Delete(c.lines, 0, len(c.lines)-chatKept)
	}
	line := tablemodel.Line{tablemodel.Text(i18n.T("chat · %s", l.Reads()))}
	c.logged[l.ID] = append(c.logged[l.ID], &line[0])
	g.m.Log = append(g.m.Log, line)
}

// applyChat runs the page's chat commands; false: c is none.
func (g *Game) applyChat(c command) bool {
	switch c.Op {
	case "chat":
		g.sendChat(c.Quick, c.Text)
	case "mute":
		g.toggleMute(c.Member)
	default:
		return false
	}
	return true
}

// sendChat posts quick message quick (> 0) or text, after checking it as
// a receiver would (chat.CheckText), off the model's goroutine.
func (g *Game) sendChat(quick int, text string) {
	m, c := g.m, g.chat
	switch {
	case c == nil || c.send == nil:
		m.Refuse(i18n.T("this table has no chat"))
		return
	case quick != 0 && text != "":
		m.Refuse(i18n.T("the page sent a command okey cannot read"))
		return
	case quick != 0 && (quick < 1 || quick > len(tablemodel.QuickMessages)):
		m.Refuse(i18n.T("there is no quick message %d", quick))
		return
	case quick == 0 && (len(text) > chat.MaxText || utf8.RuneCountInString(text) > chat.MaxTextRunes):
		m.Refuse(i18n.T("the message is too long: at most %d characters", chat.MaxTextRunes))
		return
	}
	if quick == 0 {
		text = chat.Clean(text)
		if text == "" {
			m.Refuse(i18n.T("there is nothing to send"))
			return
		}
		if err := chat.CheckText(text); err != nil {
			m.Refuse(i18n.T("the message was not sent: %s", tablemodel.Explain(err)))
			return
		}
	}
	send := c.send
	go func() {
		if err := send(quick, text); err != nil {
			g.post(func() { g.chatFailed(err) })
		}
	}()
	m.Say("")
}

// chatFailed says why a message was not sent.
func (g *Game) chatFailed(err error) {
	if errors.Is(err, chat.ErrTooFast) {
		g.m.Refuse(i18n.T("wait a moment before sending more"))
		return
	}
	g.m.Refuse(i18n.T("the message was not sent: %s", tablemodel.Explain(err)))
}

// toggleMute mutes or unmutes the member whose peer id is id: a muted
// member's messages leave the chat and the log, and new ones are not
// shown.
func (g *Game) toggleMute(id string) {
	m, c := g.m, g.chat
	if c == nil {
		m.Refuse(i18n.T("this table has no chat"))
		return
	}
	i := slices.IndexFunc(c.members, func(x tablemodel.ChatMember) bool { return x.ID == id && !x.Self })
	if i < 0 {
		m.Refuse(i18n.T("there is no such player to mute"))
		return
	}
	who := c.members[i]
	if c.muted[id] {
		delete(c.muted, id)
		m.Say(i18n.T("%s is no longer muted", who.Name))
		return
	}
	c.muted[id] = true
	c.lines = slices.DeleteFunc(c.lines, func(l tablemodel.ChatLine) bool { return l.ID == id })
	hide := map[*tablemodel.Span]bool{}
	for _, s := range c.logged[id] {
		hide[s] = true
	}
	delete(c.logged, id)
	m.Log = slices.DeleteFunc(slices.Clone(m.Log), func(l tablemodel.Line) bool { return len(l) > 0 && hide[&l[0]] })
	m.Say(i18n.T("%s is muted: you no longer see their messages", who.Name))
}

// chatJSON is the chat as the page draws it.
type chatJSON struct {
	Lines   []chatLineJSON    `json:"lines"`   // the latest messages, oldest first (muted authors' left out)
	Members []chatMemberJSON  `json:"members"` // roster order
	Quick   []string          `json:"quick"`   // the quick messages 1..9 in the page's language
	Max     int               `json:"max"`     // the most characters of a text
	Labels  map[string]string `json:"labels"`
	// ReadOnly: a spectator's page, which shows the messages and posts none.
	ReadOnly bool `json:"readOnly,omitempty"`
}

type chatLineJSON struct {
	ID   string `json:"id"` // the author's peer id
	Name string `json:"name"`
	Text string `json:"text"` // a quick message in the page's language
	Own  bool   `json:"own,omitempty"`
}

type chatMemberJSON struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Self  bool   `json:"self,omitempty"`
	Muted bool   `json:"muted,omitempty"`
}

// chatState is the chat's part of the state (nil: no chat at this table).
func (g *Game) chatState() *chatJSON {
	c := g.chat
	if c == nil {
		return nil
	}
	out := &chatJSON{Lines: chatLines(c.lines), Members: []chatMemberJSON{}, Max: chat.MaxTextRunes, Labels: chatLabels()}
	for _, mb := range c.members {
		out.Members = append(out.Members, chatMemberJSON{ID: mb.ID, Name: mb.Name, Self: mb.Self, Muted: c.muted[mb.ID]})
	}
	for i := range tablemodel.QuickMessages {
		out.Quick = append(out.Quick, tablemodel.QuickText(i+1))
	}
	return out
}

// chatLabels are the chat panel's words.
func chatLabels() map[string]string {
	return map[string]string{
		"chat": i18n.T("chat"), "send": i18n.T("send"), "mute": i18n.T("mute"), "unmute": i18n.T("unmute"),
		"input": i18n.T("your own words: enter sends"), "none": i18n.T("no message yet"),
		"keys": i18n.T("/ chat · enter sends · esc closes"),
	}
}

// chatLines are the messages as the page draws them (a quick message in
// the page's language).
func chatLines(ls []tablemodel.ChatLine) []chatLineJSON {
	out := []chatLineJSON{}
	for _, l := range ls {
		out = append(out, chatLineJSON{ID: l.ID, Name: l.Author(), Text: l.Body(), Own: l.Own})
	}
	return out
}

// watchChat is the chat's part of a spectator's page: the messages the
// table's members posted (a spectator reads, never posts: protocol.md
// 7.13), shown once the first comes.
func watchChat(ls []tablemodel.ChatLine) *chatJSON {
	if len(ls) == 0 {
		return nil
	}
	l := chatLabels()
	l["keys"] = i18n.T("spectators read the chat and do not post")
	return &chatJSON{Lines: chatLines(ls), Members: []chatMemberJSON{}, Quick: []string{}, Labels: l, ReadOnly: true}
}
