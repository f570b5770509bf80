package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/chat"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
)

// sent is a message the chat posted (ChatSendFunc).
type sent struct {
	quick int
	text  string
}

// chatMembers are the table's members: the player (ayse) and three bots.
var chatMembers = []ChatMember{{ID: "P0", Name: "ayse", Self: true}, {ID: "P1", Name: "bot1"}, {ID: "P2", Name: "bot2"}, {ID: "P3", Name: "bot3"}}

// logHas reports whether the view's log has a line containing s.
func logHas(v *TableView, s string) bool {
	for _, l := range v.m.Log {
		if strings.Contains(l.String(), s) {
			return true
		}
	}
	return false
}

// TestChatScreen: at a networked table (classic and 101), in English and
// Turkish at 80x24, 100x30 and 120x36: a message shows on the chat line of
// its own (over the links line, the table above it whole) and in the log;
// '/' opens the quick messages and a digit sends one (each reader sees it
// in its own language); enter types one's own words (the game's keys type
// letters then: x does not discard); a long message is shortened at a
// word; the sender's limit says so; m mutes a player, whose messages leave
// the log and the chat line and no longer show; no word is cut anywhere.
func TestChatScreen(t *testing.T) {
	lane.NoRace(t)
	games := []struct {
		name    string
		fixture func(*testing.T) (*Snapshot, []Line)
		request func(*harness)
	}{
		{"classic", playedFixture, func(hs *harness) { hs.request() }},
		{"101", func(t *testing.T) (*Snapshot, []Line) { return fixture101Four(t), nil }, func(hs *harness) { hs.request101() }},
	}
	for _, g := range games {
		t.Run(g.name, func(t *testing.T) {
			everyCut(t, func(t *testing.T, scr *cutScreen, w, h int) {
				tr := i18n.Current() == i18n.Turkish
				word := func(en, tk string) string {
					if tr {
						return tk
					}
					return en
				}
				s, lines := g.fixture(t)
				s.At = goldenClock
				hs := goldenHarness(t, s, w, h)
				hs.scr = scr
				hs.view.Update(s, lines, nil)
				g.request(hs)
				hs.view.setLinks([]SeatLink{{Name: "bot1", Kind: "direct", RTT: 23 * time.Millisecond}, {Name: "bot2", Kind: "direct"}, {Name: "bot3", Kind: "relayed"}})
				var posted []sent
				var fail error
				hs.view.enableChat(chatMembers, func(q int, text string) error {
					if fail != nil {
						return fail
					}
					posted = append(posted, sent{q, text})
					return nil
				})
				hs.draw()
				rows := func() []string { return screenLines(hs.scr) }
				chatRow := h - 4
				if !strings.Contains(rows()[chatRow], "/ "+word("chat", "sohbet")) {
					t.Fatalf("no chat line at row %d:\n%s", chatRow, hs.screen())
				}
				if !strings.Contains(rows()[h-3], "bot1") {
					t.Fatalf("the links line moved:\n%s", hs.screen())
				}
				before := hs.screen()

				// A quick message arrives: in the reader's language.
				hs.view.addChat(ChatLine{Member: 1, ID: "P1", Name: "bot1", Quick: 1})
				hs.draw()
				wp := "bot1: " + word("well played", "iyi oyundu")
				if !strings.Contains(rows()[chatRow], wp) || !logHas(hs.view, wp) {
					t.Fatalf("the quick message is not on the chat line and in the log:\n%s", hs.screen())
				}
				// The rack stays whole above the chat line.
				rackRow := -1
				for i, l := range rows() {
					if strings.Contains(l, word("your rack", "istakan")) {
						rackRow = i
					}
				}
				if rackRow < 0 || rackRow+rackH > chatRow {
					t.Fatalf("the rack (row %d, %d rows) runs into the chat line (row %d):\n%s", rackRow, rackH, chatRow, hs.screen())
				}
				_ = before

				// '/' opens the quick messages; 6 sends "one more?".
				hs.keys("/")
				scrText := hs.screen()
				for _, q := range []string{word("hurry up, please", "biraz hızlı lütfen"), word("one more?", "bir el daha?"), word("good luck", "bol şans")} {
					if !strings.Contains(scrText, q) {
						t.Fatalf("%q not in the chat's panel:\n%s", q, scrText)
					}
				}
				hs.keys("6")
				if len(posted) != 1 || posted[0] != (sent{6, ""}) {
					t.Fatalf("posted %+v, want quick 6", posted)
				}
				if strings.Contains(hs.screen(), word("hurry up, please", "biraz hızlı lütfen")) {
					t.Fatalf("the panel stayed open:\n%s", hs.screen())
				}

				// Enter types: x is a letter then, and the game does not move.
				rack := fmt.Sprint(hs.view.m.Rack)
				hs.keys("/")
				hs.key(tcell.KeyEnter, 0)
				hs.keys("xx selam")
				hs.key(tcell.KeyBackspace2, 0)
				if !strings.Contains(rows()[chatRow], word("say:", "yaz:")+" xx sela") {
					t.Fatalf("the input is not on the chat line:\n%s", hs.screen())
				}
				hs.view.pasteChat(" ve\nsonra\x00")
				hs.key(tcell.KeyEnter, 0)
				if len(posted) != 2 || posted[1] != (sent{0, "xx sela ve sonra"}) || fmt.Sprint(hs.view.m.Rack) != rack {
					t.Fatalf("posted %+v (rack changed: %v)", posted, fmt.Sprint(hs.view.m.Rack) != rack)
				}
				// Esc cancels a text.
				hs.keys("/")
				hs.key(tcell.KeyEnter, 0)
				hs.keys("no")
				hs.key(tcell.KeyEscape, 0)
				if len(posted) != 2 {
					t.Fatalf("esc posted %+v", posted)
				}
				// The sender's limit says so.
				fail = chat.ErrTooFast
				hs.keys("/3")
				if !strings.Contains(hs.view.Message(), word("wait a moment", "biraz bekle")) {
					t.Fatalf("the rate limit's message: %q", hs.view.Message())
				}
				fail = nil

				// A long text: shortened at a word, never cut.
				long := strings.Repeat("çok güzel bir el oldu ", 6) + "sonuna"
				hs.view.addChat(ChatLine{Member: 2, ID: "P2", Name: "bot2", Text: strings.TrimSpace(long)})
				hs.draw()
				if !strings.Contains(rows()[chatRow], "bot2: çok güzel") || !strings.Contains(rows()[chatRow], "…") && w < 150 {
					t.Fatalf("the long message:\n%s", rows()[chatRow])
				}

				// Mute bot1 (the first of the others): its line leaves the
				// log, and its next message shows nowhere.
				hs.keys("/m")
				if !strings.Contains(hs.screen(), word("mute a player", "bir oyuncuyu sustur")) {
					t.Fatalf("the mute panel:\n%s", hs.screen())
				}
				hs.keys("1")
				if logHas(hs.view, wp) {
					t.Fatal("a muted player's message is still in the log")
				}
				if !strings.Contains(hs.view.Message(), "bot1") {
					t.Fatalf("muting says nothing: %q", hs.view.Message())
				}
				hs.view.addChat(ChatLine{Member: 1, ID: "P1", Name: "bot1", Text: "hidden words"})
				hs.draw()
				if strings.Contains(hs.screen(), "hidden words") || logHas(hs.view, "hidden words") {
					t.Fatalf("a muted player's message shows:\n%s", hs.screen())
				}
				// bot2 still speaks; unmuting bot1 shows its next message.
				hs.view.addChat(ChatLine{Member: 2, ID: "P2", Name: "bot2", Quick: 4})
				hs.draw()
				if !strings.Contains(rows()[chatRow], "bot2: "+word("good luck", "bol şans")) {
					t.Fatalf("bot2's message:\n%s", rows()[chatRow])
				}
				hs.keys("/m1")
				hs.view.addChat(ChatLine{Member: 1, ID: "P1", Name: "bot1", Quick: 9})
				hs.draw()
				if !strings.Contains(rows()[chatRow], "bot1: "+word("bye", "görüşürüz")) {
					t.Fatalf("after unmuting:\n%s", rows()[chatRow])
				}
				// A failed send says why.
				fail = errors.New("p2p: closed")
				hs.keys("/1")
				if hs.view.Message() == "" {
					t.Fatal("a failed send says nothing")
				}
				// The help lists the chat key where it has a row left
				// (the chat line names it anyway).
				hs.keys("?")
				if h > 24 && !strings.Contains(hs.screen(), word("quick messages by their digit", "rakamıyla hızlı mesajlar")) {
					t.Fatalf("the help does not list the chat key:\n%s", hs.screen())
				}
			})
		})
	}
}

// TestNoChatLineOffline: a table with no chat (against bots on this
// computer) keeps every row for the game, and '/' does nothing there.
func TestNoChatLineOffline(t *testing.T) {
	s, lines := playedFixture(t)
	hs := goldenHarness(t, s, 80, 24)
	hs.view.Update(s, lines, nil)
	hs.draw()
	before := hs.screen()
	if strings.Contains(before, "/ chat") {
		t.Fatalf("a chat line offline:\n%s", before)
	}
	hs.keys("/")
	if hs.view.chat != nil {
		t.Fatal("'/' opened a chat offline")
	}
}

// TestWatchChatLine: a spectator reads the table's chat on its status line
// (in its own language, a long one shortened at a word), and a chat update
// leaves the watch's progress as it was; no word is cut.
func TestWatchChatLine(t *testing.T) {
	everyCut(t, func(t *testing.T, scr *cutScreen, w, h int) {
		v := NewWatchView([]string{"ayse", "bot1"}, "classic", func() {})
		v.SetPalette(Palette256)
		v.SetRect(0, 0, w, h)
		v.Add(WatchUpdate{Step: 7})
		v.Add(WatchUpdate{Chat: &ChatLine{Member: 1, ID: "P1", Name: "bot1", Quick: 6}})
		scr.Clear()
		v.Draw(scr)
		scr.Show()
		rows := screenLines(scr)
		want := "bot1: one more?"
		if i18n.Current() == i18n.Turkish {
			want = "bot1: bir el daha?"
		}
		if !strings.Contains(rows[h-2], want) || v.step != 7 {
			t.Fatalf("status line %q (step %d)", rows[h-2], v.step)
		}
		v.Add(WatchUpdate{Chat: &ChatLine{Member: 0, ID: "P0", Name: "ayse", Text: strings.TrimSpace(strings.Repeat("izleyenlere de selam olsun ", 8))}})
		scr.Clear()
		v.Draw(scr)
		scr.Show()
		if l := screenLines(scr)[h-2]; !strings.Contains(l, "ayse: izleyenlere") || !strings.Contains(l, "…") {
			t.Fatalf("status line %q", l)
		}
	})
}

// TestGameChat: the Game's bridge: SetChat and Chat (from the network's
// goroutines) reach the screen, and a quick message chosen with keys is
// posted off the screen's goroutine.
func TestGameChat(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(80, 24)
	g := NewGame(0, Options{Screen: scr})
	ran := make(chan error, 1)
	go func() { ran <- g.Run() }()
	defer func() {
		g.Quit()
		select {
		case <-ran:
		case <-time.After(10 * time.Second):
			t.Error("the application did not stop")
		}
	}()
	posted := make(chan sent, 1)
	g.SetChat(chatMembers, func(q int, text string) error {
		posted <- sent{q, text}
		return chat.ErrTooFast
	})
	g.Chat(ChatLine{Member: 1, ID: "P1", Name: "bot1", Quick: 3})
	waitScreen(t, g, scr, 10*time.Second, "the chat line", func(s string) bool { return strings.Contains(s, "/ chat bot1: thanks") })
	for _, r := range "/5" {
		g.app.QueueEvent(tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone))
	}
	select {
	case p := <-posted:
		if p != (sent{5, ""}) {
			t.Fatalf("posted %+v", p)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("nothing posted")
	}
	waitScreen(t, g, scr, 10*time.Second, "the limit's message", func(s string) bool { return strings.Contains(s, "wait a moment before sending more") })
}
