package web

import (
	"fmt"
	"testing"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/ui"
)

// TestWatchPageChat: a spectator's page shows the watched table's chat,
// read only (no quick messages, no members to mute, the readOnly flag the
// page hides its input by), once the first message comes; a quick message
// reads in the page's language, a text stays the author's characters; the
// latest 50 are kept; a chat command from the page is refused (a spectator
// never posts, protocol.md 7.13) and changes nothing.
func TestWatchPageChat(t *testing.T) {
	i18n.Set(i18n.English)
	t.Cleanup(func() { i18n.Set(i18n.English) })
	f := NewWatchPage([]string{"ayse", "ali"}, "classic")
	if st := f.build(); st.Chat != nil {
		t.Fatalf("a watch with no message yet shows a chat: %+v", st.Chat)
	}
	f.Add(ui.WatchUpdate{Chat: &ui.ChatLine{Member: 1, ID: "p-ali", Name: "ali", Quick: 3}})
	f.Add(ui.WatchUpdate{Chat: &ui.ChatLine{Member: 0, ID: "p-ayse", Name: "ayse", Text: "<b>merhaba</b>"}})
	st := f.build()
	c := st.Chat
	if c == nil || !c.ReadOnly || len(c.Quick) != 0 || len(c.Members) != 0 || len(c.Lines) != 2 {
		t.Fatalf("the spectator's chat: %+v", c)
	}
	if l := c.Lines[0]; l.Name != "ali" || l.Text != "thanks" || l.ID != "p-ali" {
		t.Errorf("the quick message: %+v", l)
	}
	if l := c.Lines[1]; l.Name != "ayse" || l.Text != "<b>merhaba</b>" {
		t.Errorf("the text: %+v", l)
	}
	i18n.Set(i18n.Turkish)
	if l := f.build().Chat.Lines[0]; l.Text != i18n.T("thanks") || l.Text == "thanks" {
		t.Errorf("the quick message in Turkish: %+v", l)
	}
	i18n.Set(i18n.English)

	for i := range 60 {
		f.Add(ui.WatchUpdate{Chat: &ui.ChatLine{Member: 1, ID: "p-ali", Name: "ali", Text: fmt.Sprint("m", i)}})
	}
	ls := f.build().Chat.Lines
	if len(ls) != chatKept || ls[len(ls)-1].Text != "m59" || ls[0].Text != fmt.Sprint("m", 60-chatKept) {
		t.Fatalf("kept %d, first %q, last %q; want the latest %d", len(ls), ls[0].Text, ls[len(ls)-1].Text, chatKept)
	}

	f.do(command{Op: "chat", Text: "hi"})
	st = f.build()
	if !st.MsgBad || st.Msg == "" || len(st.Chat.Lines) != chatKept || st.Chat.Lines[chatKept-1].Text != "m59" {
		t.Fatalf("a spectator's chat command: msg %q bad %v, last line %+v", st.Msg, st.MsgBad, st.Chat.Lines[chatKept-1])
	}
}
