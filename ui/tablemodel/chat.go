package tablemodel

import "github.com/okey-game/okey/internal/i18n"

// The table's chat as both front ends show it (protocol.md 7.13): its
// members, its accepted messages and the quick messages' texts. The
// terminal draws them in its chat line and panel (ui), the web table in
// its chat panel (web).

// QuickMessages are the quick messages by their protocol numbers (1..9),
// as catalogue keys: each reader shows them in its own language
// (QuickText).
var QuickMessages = []string{
	i18n.Mark("well played"),
	i18n.Mark("hurry up, please"),
	i18n.Mark("thanks"),
	i18n.Mark("good luck"),
	i18n.Mark("sorry"),
	i18n.Mark("one more?"),
	i18n.Mark("hello"),
	i18n.Mark("nice move"),
	i18n.Mark("bye"),
}

// QuickText is quick message n in the reader's language.
func QuickText(n int) string {
	if n >= 1 && n <= len(QuickMessages) {
		return i18n.TKey(QuickMessages[n-1])
	}
	return i18n.T("quick message %d", n)
}

// ChatMember is one of the table's members as the chat names them, in
// roster order.
type ChatMember struct {
	ID   string // peer id
	Name string
	Self bool
}

// ChatLine is one chat message accepted at the table.
type ChatLine struct {
	Member int // roster index
	ID     string
	Name   string
	Quick  int // a quick message's number (0: a text)
	Text   string
	Own    bool
}

// ChatSendFunc posts a quick message (quick > 0) or a text.
type ChatSendFunc func(quick int, text string) error

// Author is the message's author as the chat names them: the display
// name, or "player N" when the roster has none.
func (l ChatLine) Author() string {
	if l.Name == "" {
		return i18n.T("player %d", l.Member+1)
	}
	return l.Name
}

// Body is what the message says in the reader's language: its text, or
// the quick message's.
func (l ChatLine) Body() string {
	if l.Quick > 0 {
		return QuickText(l.Quick)
	}
	return l.Text
}

// Reads is how a message reads: "name: text".
func (l ChatLine) Reads() string { return l.Author() + ": " + l.Body() }
