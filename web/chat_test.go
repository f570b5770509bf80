package web

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/okey-game/okey/chat"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/ui/tablemodel"
)

// posted is a message the page's chat posted.
type posted struct {
	quick int
	text  string
}

// chatGame is a Game with no model goroutine: the test runs what is
// queued (drain) and the page's commands (apply) itself.
func chatGame(t *testing.T) *Game {
	t.Helper()
	i18n.Set(i18n.English)
	return NewGame(0)
}

func drain(g *Game) {
	for len(g.queue) > 0 {
		(<-g.queue)()
	}
}

// chatOf is the chat's part of the state the page is sent.
func chatOf(t *testing.T, g *Game) (*chatJSON, *stateJSON) {
	t.Helper()
	b, err := json.Marshal(g.build())
	if err != nil {
		t.Fatal(err)
	}
	var st stateJSON
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	return st.Chat, &st
}

func chatLog(st *stateJSON) []string {
	var out []string
	for _, l := range st.Log {
		if len(l) > 0 && strings.HasPrefix(l[0].T, "chat · ") {
			out = append(out, l[0].T)
		}
	}
	return out
}

// TestWebChatNone: a table with no chat (against bots on this computer)
// has no chat in its state, and the page's chat and mute are refused on
// the message line.
func TestWebChatNone(t *testing.T) {
	g := chatGame(t)
	for _, c := range []command{{Op: "chat", Quick: 1}, {Op: "chat", Text: "hello"}, {Op: "mute", Member: "P1"}} {
		g.apply(c)
		c, st := chatOf(t, g)
		if c != nil || !st.MsgBad || st.Msg != "this table has no chat" {
			t.Fatalf("%+v: chat %+v, message %q (bad %v)", c, c, st.Msg, st.MsgBad)
		}
	}
}

// TestWebChatCommands: the page posts quick messages and texts (cleaned as
// the terminal cleans them), and every bad message is refused on the
// message line with nothing posted: an unknown quick message, a text over
// chat's bounds (characters or bytes), an empty one, both at once. A send
// that fails (too fast) says so.
func TestWebChatCommands(t *testing.T) {
	g := chatGame(t)
	sent := make(chan posted, 16)
	// Each send waits for the test's answer: the network's.
	answers := make(chan error)
	g.SetChat([]tablemodel.ChatMember{{ID: "P0", Name: "ayse", Self: true}, {ID: "P1", Name: "mehmet"}}, func(q int, s string) error {
		sent <- posted{q, s}
		return <-answers
	})
	drain(g)
	next := func(what string) posted {
		t.Helper()
		select {
		case p := <-sent:
			return p
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: nothing posted", what)
			return posted{}
		}
	}
	ok := func(c command, want posted) {
		t.Helper()
		g.apply(c)
		if p := next(fmt.Sprint(c)); p != want {
			t.Fatalf("%+v posted %+v, want %+v", c, p, want)
		}
		answers <- nil
		if _, st := chatOf(t, g); st.MsgBad {
			t.Fatalf("%+v: refused %q", c, st.Msg)
		}
	}
	ok(command{Op: "chat", Quick: 3}, posted{3, ""})
	ok(command{Op: "chat", Text: "  iyi   oyunlar \n"}, posted{0, "iyi   oyunlar"})
	ok(command{Op: "chat", Text: strings.Repeat("ğ", chat.MaxTextRunes)}, posted{0, strings.Repeat("ğ", chat.MaxTextRunes)})
	for _, c := range []struct {
		c    command
		want string
	}{
		{command{Op: "chat", Quick: 10}, "there is no quick message 10"},
		{command{Op: "chat", Quick: -1}, "there is no quick message -1"},
		{command{Op: "chat", Text: strings.Repeat("a", chat.MaxTextRunes+1)}, "the message is too long: at most 140 characters"},
		{command{Op: "chat", Text: strings.Repeat("😀", chat.MaxText/4+1)}, "the message is too long: at most 140 characters"},
		{command{Op: "chat", Text: " \t "}, "there is nothing to send"},
		{command{Op: "chat"}, "there is nothing to send"},
		{command{Op: "chat", Quick: 2, Text: "hi"}, "the page sent a command okey cannot read"},
	} {
		before, _ := chatOf(t, g)
		g.apply(c.c)
		after, st := chatOf(t, g)
		if !st.MsgBad || st.Msg != c.want {
			t.Errorf("%+v: message %q (bad %v), want the refusal %q", c.c, st.Msg, st.MsgBad, c.want)
		}
		if !reflect.DeepEqual(before, after) {
			t.Errorf("%+v changed the chat: %+v -> %+v", c.c, before, after)
		}
	}
	select {
	case p := <-sent:
		t.Fatalf("a refused message was posted: %+v", p)
	case <-time.After(50 * time.Millisecond):
	}
	g.apply(command{Op: "chat", Quick: 1})
	next("too fast")
	answers <- chat.ErrTooFast
	deadline := time.Now().Add(10 * time.Second)
	for {
		drain(g)
		if _, st := chatOf(t, g); st.MsgBad && st.Msg == "wait a moment before sending more" {
			break
		}
		if time.Now().After(deadline) {
			_, st := chatOf(t, g)
			t.Fatalf("a send refused as too fast: message %q", st.Msg)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestWebChatMute: accepted messages reach the state (the author's name,
// the quick message in the page's language) and the log; muting a member
// takes their messages off both and hides the new ones, for this player
// only, the others' and one's own still shown; unmuting shows the new
// ones again. Muting oneself or an unknown member is refused, nothing
// changed.
func TestWebChatMute(t *testing.T) {
	g := chatGame(t)
	g.SetChat([]tablemodel.ChatMember{{ID: "P0", Name: "ayse", Self: true}, {ID: "P1", Name: "mehmet"}, {ID: "P2", Name: "zeynep"}},
		func(int, string) error { return nil })
	g.Chat(tablemodel.ChatLine{Member: 1, ID: "P1", Name: "mehmet", Text: "selam"})
	g.Chat(tablemodel.ChatLine{Member: 2, ID: "P2", Name: "zeynep", Quick: 4})
	g.Chat(tablemodel.ChatLine{Member: 0, ID: "P0", Name: "ayse", Text: "merhaba", Own: true})
	drain(g)
	lines := func(c *chatJSON) string {
		var out []string
		for _, l := range c.Lines {
			out = append(out, l.Name+": "+l.Text)
		}
		return strings.Join(out, " | ")
	}
	c, st := chatOf(t, g)
	if got, want := lines(c), "mehmet: selam | zeynep: good luck | ayse: merhaba"; got != want {
		t.Fatalf("chat lines %q, want %q", got, want)
	}
	if got := chatLog(st); len(got) != 3 || got[0] != "chat · mehmet: selam" {
		t.Fatalf("the log's chat lines: %q", got)
	}
	if len(c.Quick) != 9 || c.Quick[0] != "well played" || c.Max != chat.MaxTextRunes || len(c.Members) != 3 || !c.Members[0].Self {
		t.Fatalf("chat state %+v", c)
	}
	i18n.Set(i18n.Turkish)
	c, _ = chatOf(t, g)
	i18n.Set(i18n.English)
	if c.Quick[0] != "iyi oyundu" || c.Lines[1].Text != "bol şans" || c.Labels["chat"] != "sohbet" {
		t.Fatalf("the Turkish page's chat: %+v", c)
	}

	for _, id := range []string{"P0", "nobody", ""} {
		before, _ := chatOf(t, g)
		g.apply(command{Op: "mute", Member: id})
		after, st := chatOf(t, g)
		if !st.MsgBad || st.Msg != "there is no such player to mute" || !reflect.DeepEqual(before, after) {
			t.Fatalf("mute %q: message %q (bad %v), chat %+v -> %+v", id, st.Msg, st.MsgBad, before, after)
		}
	}
	g.apply(command{Op: "mute", Member: "P1"})
	g.Chat(tablemodel.ChatLine{Member: 1, ID: "P1", Name: "mehmet", Text: "hidden words"})
	g.Chat(tablemodel.ChatLine{Member: 2, ID: "P2", Name: "zeynep", Text: "still here"})
	drain(g)
	c, st = chatOf(t, g)
	if got, want := lines(c), "zeynep: good luck | ayse: merhaba | zeynep: still here"; got != want {
		t.Fatalf("muted: chat lines %q, want %q", got, want)
	}
	if got := chatLog(st); len(got) != 3 || strings.Contains(strings.Join(got, "|"), "mehmet") {
		t.Fatalf("muted: the log's chat lines %q", got)
	}
	if st.MsgBad || st.Msg != "mehmet is muted: you no longer see their messages" || !c.Members[1].Muted || c.Members[2].Muted {
		t.Fatalf("muted: message %q, members %+v", st.Msg, c.Members)
	}
	g.apply(command{Op: "mute", Member: "P1"})
	g.Chat(tablemodel.ChatLine{Member: 1, ID: "P1", Name: "mehmet", Quick: 9})
	drain(g)
	c, st = chatOf(t, g)
	if st.Msg != "mehmet is no longer muted" || c.Members[1].Muted || c.Lines[len(c.Lines)-1].Text != "bye" {
		t.Fatalf("unmuted: message %q, chat %+v", st.Msg, c)
	}
}

// TestWebChatCap: the page is sent the latest chatKept messages, oldest
// first.
func TestWebChatCap(t *testing.T) {
	g := chatGame(t)
	g.SetChat([]tablemodel.ChatMember{{ID: "P0", Name: "ayse", Self: true}, {ID: "P1", Name: "mehmet"}}, func(int, string) error { return nil })
	drain(g)
	for i := range chatKept + 20 {
		g.Chat(tablemodel.ChatLine{Member: 1, ID: "P1", Name: "mehmet", Text: fmt.Sprint("m", i)})
		drain(g)
	}
	c, _ := chatOf(t, g)
	if len(c.Lines) != chatKept || c.Lines[0].Text != "m20" || c.Lines[chatKept-1].Text != fmt.Sprint("m", chatKept+19) {
		t.Fatalf("%d lines, from %q to %q", len(c.Lines), c.Lines[0].Text, c.Lines[len(c.Lines)-1].Text)
	}
}

// FuzzChatCommand: whatever chat or mute a page sends, the model neither
// panics nor posts a message a receiver would reject: a quick message of
// the table (1..9) or a text chat.CheckText accepts.
func FuzzChatCommand(f *testing.F) {
	for _, s := range []string{`{"op":"chat","quick":1}`, `{"op":"chat","quick":99}`, `{"op":"chat","text":"  hi  "}`,
		`{"op":"chat","text":"\u0000\u200b"}`, `{"op":"chat","quick":2,"text":"x"}`, `{"op":"mute","member":"P1"}`,
		`{"op":"mute","member":"P0"}`, `{"op":"chat","text":"\xff\xfe"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g := NewGame(0)
		sent := make(chan posted, 1)
		g.SetChat([]tablemodel.ChatMember{{ID: "P0", Name: "ayse", Self: true}, {ID: "P1", Name: "mehmet"}}, func(q int, s string) error {
			sent <- posted{q, s}
			return nil
		})
		drain(g)
		var c command
		if json.Unmarshal(b, &c) != nil || c.Op == "leave" {
			return
		}
		g.apply(c)
		g.build()
		if g.m.MsgBad {
			return // refused: nothing is posted
		}
		if c.Op != "chat" {
			return
		}
		p := <-sent
		if p.quick != 0 && (p.quick < 1 || p.quick > len(tablemodel.QuickMessages)) || p.quick == 0 && chat.CheckText(p.text) != nil {
			t.Fatalf("%s posted %+v", b, p)
		}
	})
}

// TestWebChatEarlyMessage: a message that comes before the table's chat
// is set (the peer follows the chat before it gives the sender) is kept
// and shown.
func TestWebChatEarlyMessage(t *testing.T) {
	g := chatGame(t)
	g.Chat(tablemodel.ChatLine{Member: 1, ID: "P1", Name: "mehmet", Quick: 7})
	g.SetChat([]tablemodel.ChatMember{{ID: "P0", Name: "ayse", Self: true}, {ID: "P1", Name: "mehmet"}}, func(int, string) error { return nil })
	drain(g)
	c, st := chatOf(t, g)
	if c == nil || len(c.Lines) != 1 || c.Lines[0].Text != "hello" || len(c.Members) != 2 || len(chatLog(st)) != 1 {
		t.Fatalf("an early message: %+v", c)
	}
}
