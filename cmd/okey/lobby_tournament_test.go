package main

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/tournament/participant"
	"github.com/okey-game/okey/ui"
)

// emptyLobby is a LAN lobby with no tables (the tournaments come from
// lobbyTours).
type emptyLobby struct{ ch chan struct{} }

func (emptyLobby) Self() (string, string, []string)                                 { return "ayse", "lobby", nil }
func (emptyLobby) Tables() []ui.LobbyTable                                          { return nil }
func (emptyLobby) Unfinished() []ui.LobbyTable                                      { return nil }
func (e emptyLobby) Changes() <-chan struct{}                                       { return e.ch }
func (emptyLobby) Join(context.Context, string) error                               { return nil }
func (emptyLobby) Leave(context.Context, string) error                              { return nil }
func (emptyLobby) SetReady(context.Context, string, bool) error                     { return nil }
func (emptyLobby) Create(context.Context, string, int, int, string) (string, error) { return "", nil }

type emptyTourLobby struct {
	emptyLobby
	*lobbyTours
}

func lobbyTestKey(i int) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte{'l', 'o', 'b', 'b', 'y', byte(i)})
	return ed25519.NewKeyFromSeed(seed[:])
}

// tourLobbyTest is a lobby screen (80x24, simulated) whose player, "ayse" with
// key lobbyTestKey(k), follows the tournaments of an in-process bus.
type tourLobbyTest struct {
	scr   tcell.SimulationScreen
	g     *ui.Game
	tours *lobbyTours
	ran   chan error // the screen's Run result
	data  string
	key   ed25519.PrivateKey
	stop  func()
}

func startTourLobbyTest(ctx context.Context, t *testing.T, bus *participant.MemBus, base string, k int) *tourLobbyTest {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(80, 24)
	l := &tourLobbyTest{scr: scr, g: ui.NewGame(0, ui.Options{Screen: scr}), ran: make(chan error, 1),
		data: filepath.Join(base, "data"), key: lobbyTestKey(k)}
	lctx, lcancel := context.WithCancel(ctx)
	front := &termTours{g: l.g}
	l.tours = newLobbyTours(lctx, tourSelf{Key: l.key, Data: l.data, Name: "ayse", PeerID: "lobby"}, front, bus.Join("lobby"), slog.New(slog.DiscardHandler),
		func(_ context.Context, cfg table.Config) (table.Transport, error) {
			return bus.TableNet("lobby", cfg), nil
		})
	front.lv = l.g.ShowLobby(emptyTourLobby{emptyLobby{make(chan struct{})}, l.tours}, func(ui.LobbyTable) {})
	go func() { l.ran <- l.g.Run() }()
	l.stop = func() {
		l.g.Quit()
		lcancel()
		l.tours.wait()
	}
	return l
}

// TestLobbyJoinsTournament: over an in-process bus, a tournament of 3
// (its creator and a bot participant) is listed in the lobby; j on it
// registers the lobby's player with its key (the creator receives the
// registration), the round's table forms and takes the lobby's screen with
// the player's seat, and leaving it there (q, y) stops the player's part
// and shows the lobby again, saying how to resume (j again brings the
// table back: the part resumes from its folder); the folder holds the
// tournament's records in DATA/tournaments/<id>/folder.
func TestLobbyJoinsTournament(t *testing.T) {
	lane.NoRace(t)         // a tournament over the network: cmd/okey starts no goroutine; netplay and participant race it
	i18n.Set(i18n.English) // an earlier test of the package may leave another language
	bus := participant.NewMemBus()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := t.TempDir()
	var others []*participant.Participant
	for i := 0; i < 2; i++ {
		id := []string{"creator", "botty"}[i]
		c := participant.Config{Dir: filepath.Join(base, id), Key: lobbyTestKey(i), Name: id, PeerID: id, Net: bus.Join(id),
			Mover:    func(int) table.Mover { return bot.NewGreedy() },
			TableNet: func(_ tournament.Ref, cfg table.Config) (table.Transport, error) { return bus.TableNet(id, cfg), nil },
			Withhold: 60 * time.Second, Retry: 100 * time.Millisecond, DrawWait: 60 * time.Second}
		if i == 0 {
			c.Create = &participant.Create{Name: "spring cup", Format: "swiss:rounds=1", Ruleset: "classic:points=2", Players: 3}
		}
		p, err := participant.New(c)
		if err != nil {
			t.Fatal(err)
		}
		others = append(others, p)
		go p.Run(ctx)
	}

	l := startTourLobbyTest(ctx, t, bus, base, 2)
	defer l.stop()
	scr, g, tours, ran, data, key := l.scr, l.g, l.tours, l.ran, l.data, l.key
	screen := func(what string, cond func(string) bool) string {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			s := g.ScreenText(scr)
			if cond(s) {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: not on the screen:\n%s", what, s)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	screen("the tournament listed", func(s string) bool {
		return strings.Contains(s, "spring cup") && strings.Contains(s, "2/3") && strings.Contains(s, "registering, 1 rounds")
	})
	scr.InjectKey(tcell.KeyRune, 'j', tcell.ModNone)
	var pub [32]byte
	copy(pub[:], key.Public().(ed25519.PublicKey))
	deadline := time.Now().Add(30 * time.Second)
	for !hasRegistration(others[0].Records(), pub) {
		if time.Now().After(deadline) {
			t.Fatal("the creator never received the lobby player's registration")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := tours.unended(); len(got) != 1 || got[0] != "spring cup" {
		t.Fatalf("the parts under way: %q", got)
	}
	// The round is drawn and the table takes the screen: the player's
	// name is at it, with the other two.
	screen("the table", func(s string) bool {
		return !strings.Contains(s, "okey lobby") && strings.Contains(s, "ayse") && strings.Contains(s, "creator") && strings.Contains(s, "botty")
	})
	scr.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	screen("the leave question", func(s string) bool { return strings.Contains(s, "j on the tournament in the lobby") })
	scr.InjectKey(tcell.KeyRune, 'y', tcell.ModNone)
	screen("the lobby again", func(s string) bool {
		return strings.Contains(s, "okey lobby") && strings.Contains(s, "you left the tournament: j on it resumes")
	})
	select {
	case <-ran:
		t.Fatal("leaving the tournament's table ended the program")
	default:
	}
	if got := tours.unended(); len(got) != 0 {
		t.Fatalf("the parts under way after leaving: %q", got)
	}
	// j on it again resumes the part: the table takes the screen again.
	scr.InjectKey(tcell.KeyRune, 'j', tcell.ModNone)
	screen("the table again", func(s string) bool {
		return !strings.Contains(s, "okey lobby") && strings.Contains(s, "ayse") && strings.Contains(s, "creator") && strings.Contains(s, "botty")
	})
	if got := tours.unended(); len(got) != 1 {
		t.Fatalf("the parts under way after resuming: %q", got)
	}
	var tid [32]byte
	for _, l := range tours.board.List() {
		tid = l.ID
	}
	folder := filepath.Join(data, participant.FoldersDir, strings.ToLower(hexID(tid)), "folder", "tournament")
	if _, err := os.Stat(folder); err != nil {
		t.Fatalf("the tournament folder: %v", err)
	}
}

func hexID(tid [32]byte) string {
	const digits = "0123456789abcdef"
	var b strings.Builder
	for _, c := range tid {
		b.WriteByte(digits[c>>4])
		b.WriteByte(digits[c&15])
	}
	return b.String()
}

func hasRegistration(recs [][]byte, signer [32]byte) bool {
	for _, raw := range recs {
		if r, err := tournament.Decode(raw); err == nil && r.Kind == tournament.KindRegister && r.Signer == signer {
			return true
		}
	}
	return false
}

// TestLobbyCreatesTournament: t in the lobby announces a tournament of 3
// whose creator is the lobby's player: the announcement reaches two bot
// participants (who join the first one heard), the player is registered,
// the creator's part closes the roster and the draw, and the round's table
// takes the lobby's screen with the three players.
func TestLobbyCreatesTournament(t *testing.T) {
	i18n.Set(i18n.English) // an earlier test of the package may leave another language
	bus := participant.NewMemBus()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := t.TempDir()
	for i := 0; i < 2; i++ {
		id := []string{"bot1", "bot2"}[i]
		p, err := participant.New(participant.Config{Dir: filepath.Join(base, id), Key: lobbyTestKey(10 + i), Name: id, PeerID: id, Net: bus.Join(id),
			Mover:    func(int) table.Mover { return bot.NewGreedy() },
			TableNet: func(_ tournament.Ref, cfg table.Config) (table.Transport, error) { return bus.TableNet(id, cfg), nil },
			Withhold: 60 * time.Second, Retry: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		go p.Run(ctx)
	}
	l := startTourLobbyTest(ctx, t, bus, base, 12)
	defer l.stop()
	scr, g, tours, key, data := l.scr, l.g, l.tours, l.key, l.data
	screen := func(what string, cond func(string) bool) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for s := g.ScreenText(scr); !cond(s); s = g.ScreenText(scr) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not on the screen:\n%s", what, s)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	screen("the lobby", func(s string) bool { return strings.Contains(s, "t announces one") })
	key1 := func(k tcell.Key, r rune) { scr.InjectKey(k, r, tcell.ModNone) }
	key1(tcell.KeyRune, 't')
	screen("the form", func(s string) bool { return strings.Contains(s, "announce a tournament") })
	key1(tcell.KeyTab, 0)
	for range 5 {
		key1(tcell.KeyLeft, 0) // 8 players -> 3
	}
	key1(tcell.KeyTab, 0)
	key1(tcell.KeyLeft, 0)
	key1(tcell.KeyLeft, 0) // 3 rounds -> 1
	key1(tcell.KeyEnter, 0)
	screen("the table", func(s string) bool {
		return !strings.Contains(s, "okey lobby") && strings.Contains(s, "ayse") && strings.Contains(s, "bot1") && strings.Contains(s, "bot2")
	})
	var pub [32]byte
	copy(pub[:], key.Public().(ed25519.PublicKey))
	ls := tours.board.List()
	if len(ls) != 1 || ls[0].Creator != pub || ls[0].Name != "tournament" || ls[0].Players != 3 || ls[0].Format.Rounds != 1 || ls[0].Round != 1 {
		t.Fatalf("listed %+v", ls)
	}
	if _, err := os.Stat(filepath.Join(data, participant.FoldersDir, hexID(ls[0].ID), "folder", "tournament")); err != nil {
		t.Fatalf("the creator's folder: %v", err)
	}
}
