package ui

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/language"

	"github.com/okey-game/okey/internal/i18n"
)

// linkSizes are the terminal sizes the links line must fit.
var linkSizes = [][2]int{{80, 24}, {100, 30}, {120, 36}}

// linkWants are, per language, what the screen must show of the turn and
// of each seat's link in dropScene: the turn, bot1 direct, bot2 relayed,
// bot3 reconnecting for 14 seconds.
var linkWants = map[language.Tag][]*regexp.Regexp{
	i18n.English: {
		regexp.MustCompile(`your turn`),
		regexp.MustCompile(`bot1 direct`),
		regexp.MustCompile(`bot2 relay`),
		regexp.MustCompile(`bot3 reconnecting for 14s`),
	},
	i18n.Turkish: {
		regexp.MustCompile(`sıra sende`),
		regexp.MustCompile(`bot1 doğrudan`),
		regexp.MustCompile(`bot2 aktarıcı`),
		regexp.MustCompile(`bot3 14 sn'dir yeniden bağlanıyor`),
	},
}

// dropScene plays a drop-out on hs's table, whose clock is *clock: the
// seats' links are up (bot1 and bot3 direct, bot2 relayed), then bot3's
// peer disconnects (presence first, the links' poll 2 s later), and 12 s
// after that the player presses key, which puts a message on the message
// line.
func dropScene(hs *harness, clock *time.Time, key string) {
	hs.view.setLinks([]SeatLink{{Name: "bot1", Kind: "direct", RTT: 23 * time.Millisecond},
		{Name: "bot2", Kind: "relayed", RTT: 140 * time.Millisecond}, {Name: "bot3", Kind: "direct", RTT: 31 * time.Millisecond}})
	hs.draw()
	hs.view.setAway([]string{"bot3"})
	*clock = clock.Add(2 * time.Second)
	hs.view.setLinks([]SeatLink{{Name: "bot1", Kind: "direct", RTT: 23 * time.Millisecond},
		{Name: "bot2", Kind: "relayed", RTT: 140 * time.Millisecond}, {Name: "bot3", Kind: "none"}})
	*clock = clock.Add(12 * time.Second)
	hs.keys(key)
	hs.draw()
}

// checkDropScreen fails t unless the screen shows the turn and each seat's
// link (linkWants), with a message on the message line too.
func checkDropScreen(t *testing.T, hs *harness, lang language.Tag, w, h int) {
	t.Helper()
	scr := hs.screen()
	for _, re := range linkWants[lang] {
		if !re.MatchString(scr) {
			t.Errorf("%s %dx%d: %q is not on the screen:\n%s", lang, w, h, re, scr)
		}
	}
	if hs.view.Message() == "" {
		t.Errorf("%s %dx%d: no message on the message line", lang, w, h)
	} else if first, _, _ := strings.Cut(hs.view.Message(), " "); !strings.Contains(screenLines(hs.scr)[h-2], first) {
		t.Errorf("%s %dx%d: the message %q is not on the message line:\n%s", lang, w, h, hs.view.Message(), scr)
	}
}

// TestDropOutKeepsTheTurnAndTheLinks: while a seat's peer is reconnecting
// the classic table still says whose turn it is, and each seat's link
// (direct, relayed, reconnecting for how long) stays on screen beside a
// message, at 80x24, 100x30 and 120x36, in English and Turkish.
func TestDropOutKeepsTheTurnAndTheLinks(t *testing.T) {
	eachDropScreen(t, "h", playedFixture, func(hs *harness) { hs.request() })
}

// eachDropScreen runs the drop-out scene, at every size and in every
// language, on the table fixture gives (its snapshot and log lines),
// drawn by request; key is the hint's key.
func eachDropScreen(t *testing.T, key string, fixture func(*testing.T) (*Snapshot, []Line), request func(*harness)) {
	for _, lang := range i18n.Langs {
		for _, sz := range linkSizes {
			w, h := sz[0], sz[1]
			t.Run(fmt.Sprintf("%s-%dx%d", lang, w, h), func(t *testing.T) {
				i18n.Set(lang)
				t.Cleanup(func() { i18n.Set(i18n.English) })
				s, lines := fixture(t)
				s.At = goldenClock
				hs := goldenHarness(t, s, w, h)
				clock := goldenClock
				hs.view.m.Now = func() time.Time { return clock }
				hs.view.Update(s, lines, nil)
				request(hs)
				dropScene(hs, &clock, key)
				checkDropScreen(t, hs, lang, w, h)
			})
		}
	}
}

// fixture101Four is fixture101 at a table of four: bot3 (seat 3) deals
// and has discarded Y6; the player (seat 0) holds rack101 and is to draw.
func fixture101Four(t *testing.T) *Snapshot {
	t.Helper()
	return fixture101N(t, 4, "rounds=3,timer=60")
}

// TestDropOutKeepsTheTurnAndTheLinks101 is TestDropOutKeepsTheTurnAndTheLinks
// at an Okey 101 table of four.
func TestDropOutKeepsTheTurnAndTheLinks101(t *testing.T) {
	eachDropScreen(t, "x", func(t *testing.T) (*Snapshot, []Line) { return fixture101Four(t), nil }, func(hs *harness) { hs.request101() })
}

// TestLinksLine: the links line says how each seat is connected, with its
// round-trip time, and for how long one has been reconnecting; in fewer
// cells it drops the round-trip times, then the long words, the label,
// and last cuts the names, never a seat's state.
func TestLinksLine(t *testing.T) {
	states := []SeatLink{{Name: "mehmet", Kind: "direct", RTT: 23 * time.Millisecond}, {Name: "zeynep", Kind: "relayed", RTT: 140 * time.Millisecond},
		{Name: "ali", Kind: "via-member"}, {Name: "can", Kind: "none"}}
	downFor := func(name string) time.Duration {
		if name == "can" {
			return 14500 * time.Millisecond
		}
		return 0
	}
	text := func(w int) string {
		var b strings.Builder
		for _, s := range linksLine(states, downFor, w) {
			b.WriteString(s.s)
		}
		return b.String()
	}
	for _, c := range []struct {
		w    int
		want string
	}{
		{120, "links: mehmet direct 23 ms · zeynep relayed 140 ms · ali through a member · can reconnecting for 14s"},
		{90, "links: mehmet direct · zeynep relayed · ali through a member · can reconnecting for 14s"},
		{81, "links: mehmet direct · zeynep relay · ali via a member · can reconnecting for 14s"},
		{80, "mehmet direct · zeynep relay · ali via a member · can reconnecting for 14s"},
		{74, "mehmet direct · zeynep relay · ali via a member · can reconnecting for 14s"},
		{73, "mehm… direct · zeyn… relay · ali via a member · can reconnecting for 14s"},
	} {
		if got := text(c.w); got != c.want {
			t.Errorf("%d cells: %q\nwant %q", c.w, got, c.want)
		}
	}
	long := []SeatLink{{Name: "mehmet_ali_kaya", Kind: "direct"}, {Name: "zeynep_nur_demir", Kind: "relayed"}, {Name: "canberk_yildiz", Kind: "none"}}
	var b strings.Builder
	for _, s := range linksLine(long, downFor, 78) {
		b.WriteString(s.s)
	}
	if got, want := b.String(), "mehmet_… direct · zeynep_… relay · canberk… reconnecting for 0s"; got != want {
		t.Errorf("long names: %q\nwant %q", got, want)
	}
	if spans := linksLine(states, downFor, 78); !spans[len(spans)-1].bad || spans[0].bad {
		t.Errorf("only the seat reconnecting is marked: %+v", spans)
	}
}

// TestLinkStates: presence, told at once, corrects the links' last poll; a
// seat reconnecting counts from when the screen first saw it down, and
// from zero again after it came back and dropped once more.
func TestLinkStates(t *testing.T) {
	clock := goldenClock
	v := NewTableView(func() {})
	v.m.Now = func() time.Time { return clock }
	if v.networked() {
		t.Fatal("a table with no links keeps a row for them")
	}
	v.setLinks([]SeatLink{{Name: "bot1", Kind: "direct", RTT: time.Millisecond}, {Name: "bot2", Kind: "via-member"}})
	v.setAway([]string{"bot1", "bot2", "bot3"})
	got := v.linkStates()
	want := []SeatLink{{Name: "bot1", Kind: "none"}, {Name: "bot2", Kind: "via-member"}, {Name: "bot3", Kind: "none"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%v\nwant %v", got, want)
	}
	if len(v.down) != 2 || !v.down["bot1"].Equal(goldenClock) || !v.down["bot3"].Equal(goldenClock) {
		t.Fatalf("down: %v", v.down)
	}
	clock = clock.Add(5 * time.Second)
	v.setLinks([]SeatLink{{Name: "bot1", Kind: "none"}, {Name: "bot2", Kind: "via-member"}, {Name: "bot3", Kind: "none"}})
	if !v.down["bot1"].Equal(goldenClock) {
		t.Fatalf("a seat still down restarted its count: %v", v.down)
	}
	v.setAway(nil)
	v.setLinks([]SeatLink{{Name: "bot1", Kind: "relayed"}, {Name: "bot2", Kind: "via-member"}, {Name: "bot3", Kind: "direct"}})
	if len(v.down) != 0 {
		t.Fatalf("seats back still down: %v", v.down)
	}
	clock = clock.Add(5 * time.Second)
	v.setAway([]string{"bot1"})
	if !v.down["bot1"].Equal(clock) {
		t.Fatalf("a second drop counts from the first: %v", v.down)
	}
}

// TestScreensLinks records the links line's scenes at both games' tables,
// at 80x24, 100x30 and 120x36, in English and Turkish
// (testdata/screens/links-*; go test -run TestScreensLinks
// -update records them again): every seat's link up, bot3's peer
// reconnecting for 14 s with a message on the message line, bot3 back
// through another member.
func TestScreensLinks(t *testing.T) {
	games := []struct {
		name  string
		setup func(t *testing.T) (*Snapshot, []Line)
		ask   func(hs *harness)
		key   string
	}{
		{"classic", playedFixture, func(hs *harness) { hs.request() }, "h"},
		{"101", func(t *testing.T) (*Snapshot, []Line) { return fixture101Four(t), nil }, func(hs *harness) { hs.request101() }, "x"},
	}
	for _, g := range games {
		for _, lang := range i18n.Langs {
			for _, sz := range linkSizes {
				name := fmt.Sprintf("links-%s-%s-%dx%d", g.name, lang, sz[0], sz[1])
				t.Run(name, func(t *testing.T) {
					i18n.Set(lang)
					t.Cleanup(func() { i18n.Set(i18n.English) })
					s, lines := g.setup(t)
					s.At = goldenClock
					hs := goldenHarness(t, s, sz[0], sz[1])
					clock := goldenClock
					hs.view.m.Now = func() time.Time { return clock }
					hs.view.Update(s, lines, nil)
					g.ask(hs)
					var b strings.Builder
					scene := func(i int, name string) {
						fmt.Fprintf(&b, "#### %d %s · message %q bad=%v\n", i, name, hs.view.Message(), hs.view.m.MsgBad)
						b.WriteString(screenDump(hs.scr))
					}
					dropScene(hs, &clock, g.key)
					scene(0, "reconnecting")
					hs.view.setAway(nil)
					hs.view.setLinks([]SeatLink{{Name: "bot1", Kind: "direct", RTT: 23 * time.Millisecond},
						{Name: "bot2", Kind: "relayed", RTT: 140 * time.Millisecond}, {Name: "bot3", Kind: "via-member"}})
					hs.view.say("")
					hs.draw()
					scene(1, "back")
					checkGolden(t, filepath.Join("testdata", "screens", name+".txt"), b.String())
				})
			}
		}
	}
}
