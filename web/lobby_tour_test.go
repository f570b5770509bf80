package web

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/ui"
)

// fakeTours is a Tournaments in memory: the tournaments it is given, and
// the requests it received.
type fakeTours struct {
	mu      sync.Mutex
	list    []ui.LobbyTournament
	calls   []string
	changes chan struct{}
	err     error // the requests' answer
}

func (f *fakeTours) Tournaments() []ui.LobbyTournament {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.list)
}
func (f *fakeTours) TournamentChanges() <-chan struct{} { return f.changes }
func (f *fakeTours) JoinTournament(_ context.Context, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, "join "+id)
	return f.err
}
func (f *fakeTours) CreateTournament(_ context.Context, name, ruleset string, players, rounds int) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, "create "+name+" "+ruleset+" "+string(rune('0'+players))+" "+string(rune('0'+rounds)))
	return "t9", f.err
}
func (f *fakeTours) got() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

// TestLobbyTournaments: the lobby's state lists the tournaments (the
// terminal's state words, a join only where joining registers, the
// standings with their heading, the final ones at the end); the page's
// tjoin and tcreate reach the service, and each bad one is refused on the
// message line with nothing asked of it.
func TestLobbyTournaments(t *testing.T) {
	i18n.Set(i18n.English)
	f := &fakeLobby{changes: make(chan struct{}, 1)}
	tf := &fakeTours{changes: make(chan struct{}, 1), list: []ui.LobbyTournament{
		{ID: "a1", Name: "open cup", Ruleset: "classic:points=2", Rounds: 1, Registered: 2, Players: 3},
		{ID: "b2", Name: "full cup", Ruleset: "classic", Rounds: 2, Registered: 3, Players: 3},
		{ID: "c3", Name: "my cup", Ruleset: "classic", Rounds: 2, Registered: 3, Players: 3, Round: 2, Mine: true, Playing: true,
			Standings: []string{"1. ayse: 3 points, score 4", "2. mehmet: 2 points, score 1"}, StandingsRound: 1},
		{ID: "d4", Name: "old cup", Ruleset: "classic", Rounds: 1, Registered: 3, Players: 3, Round: 1, Mine: true, Ended: true,
			Standings: []string{"1. ayse: 3 points, score 4"}, StandingsRound: 1},
		{ID: "e5", Name: "left cup", Ruleset: "classic", Rounds: 2, Registered: 3, Players: 3, Round: 1, Mine: true},
	}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l := NewLobby(ctx, f, func(ui.LobbyTable) {})
	if s := l.build(); s.TourOn || len(s.Tours) != 0 {
		t.Fatalf("tournaments listed without a service: %+v", s.Tours)
	}
	l.SetTournaments(tf)
	s := l.build()
	if !s.TourOn || len(s.Tours) != 5 {
		t.Fatalf("listed %+v", s.Tours)
	}
	want := []struct {
		join  bool
		state string
		head  string
	}{
		{true, "registering, 1 rounds", ""},
		{false, "registering, 2 rounds", ""},
		{false, "round 2 of 2, you play", "standings after round 1 of 2:"},
		{false, "ended, you played", "final standings:"},
		{true, "round 1 of 2, you play", ""}, // left: joining resumes the part
	}
	for i, w := range want {
		g := s.Tours[i]
		if g.Join != w.join || g.State != w.state || g.Head != w.head {
			t.Errorf("%s: join %v state %q head %q, want %v %q %q", g.Name, g.Join, g.State, g.Head, w.join, w.state, w.head)
		}
	}
	if s.Tours[2].Ruleset != ui.RulesetName("classic") || len(s.Tours[2].Standings) != 2 || s.Tours[0].Registered != 2 || s.Tours[0].Players != 3 {
		t.Errorf("the rows: %+v", s.Tours)
	}

	// Refused at once, nothing asked.
	for _, c := range []struct {
		cmd  lobbyCommand
		want string
	}{
		{lobbyCommand{Op: "tjoin", ID: "b2"}, "full cup is full"},
		{lobbyCommand{Op: "tjoin", ID: "zz"}, "that tournament is no longer announced"},
		{lobbyCommand{Op: "tjoin", ID: "c3"}, "you play in my cup: each round's table opens by itself"},
		{lobbyCommand{Op: "tcreate", Name: "  ", Ruleset: "classic", Players: 3, Rounds: 1}, "give the tournament a name"},
		{lobbyCommand{Op: "tcreate", Name: "cup", Ruleset: "nonesuch", Players: 3, Rounds: 1}, ""},
	} {
		l.do(c.cmd)
		msg, bad := l.msgNow()
		if (c.want != "" && msg != c.want) || msg == "" || bad == (c.cmd.ID == "c3") {
			t.Errorf("%+v: said %q (bad %v), want %q", c.cmd, msg, bad, c.want)
		}
	}
	if got := tf.got(); len(got) != 0 {
		t.Fatalf("refused commands reached the service: %q", got)
	}

	// Asked: the join, then the create (the ruleset as the engine spells it).
	l.do(lobbyCommand{Op: "tjoin", ID: "a1"})
	waitMsg(t, l, "registering in open cup: done")
	l.do(lobbyCommand{Op: "tcreate", Name: " spring ", Ruleset: "classic:points=2", Players: 3, Rounds: 1})
	waitMsg(t, l, "announcing spring: done")
	tf.mu.Lock()
	tf.err = errors.New("no room")
	tf.mu.Unlock()
	l.do(lobbyCommand{Op: "tjoin", ID: "e5"})
	waitMsg(t, l, "registering in left cup: no room")
	if got, w := tf.got(), []string{"join a1", "create spring classic:points=2 3 1", "join e5"}; !slices.Equal(got, w) {
		t.Fatalf("the service was asked %q, want %q", got, w)
	}

	// In Turkish: the page's words and the rows' state.
	i18n.Set(i18n.Turkish)
	s = l.build()
	i18n.Set(i18n.English)
	if s.Labels["tours"] != "yerel ağdaki turnuvalar" || s.Labels["register"] != "katıl ve oyna" || s.Tours[0].State != "katılım açık, 1 tur" ||
		s.Tours[3].Head != "son puan durumu:" {
		t.Errorf("in Turkish: %q %q %q %q", s.Labels["tours"], s.Labels["register"], s.Tours[0].State, s.Tours[3].Head)
	}

	// Without a service the page's tournament commands are unknown.
	l2 := NewLobby(ctx, f, func(ui.LobbyTable) {})
	l2.do(lobbyCommand{Op: "tjoin", ID: "a1"})
	if msg, bad := l2.msgNow(); !bad || msg != "the page sent a command okey does not know" {
		t.Fatalf("without tournaments: %q", msg)
	}
}

func (l *Lobby) msgNow() (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.msg, l.bad
}

// waitMsg waits up to 5 seconds for the lobby's message line to say want.
func waitMsg(t *testing.T, l *Lobby, want string) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		msg, _ := l.msgNow()
		if msg == want {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("the message line says %q, want %q", msg, want)
		}
	}
}

// TestLobbySitTable: a tournament round's table takes the page (its Game
// served, the lobby's state naming it); the player's leave gives the page
// back to the lobby, unless the next round's table took it meanwhile:
// then that one stays.
func TestLobbySitTable(t *testing.T) {
	i18n.Set(i18n.English)
	f := &fakeLobby{changes: make(chan struct{}, 1)}
	l, s, _ := serveLobby(t, f, func(ui.LobbyTable) {})
	g1 := l.SitTable(1, "round 1")
	if s.game() != g1 || l.Playing() != "round 1" || g1.seat != 1 {
		t.Fatalf("the round's table does not have the page: %v %q", s.game(), l.Playing())
	}
	g2 := l.SitTable(0, "round 2")
	// The player leaves round 1's end panel late: round 2's table keeps
	// the page.
	if s.release(g1) || s.game() != g2 || l.Playing() != "round 2" {
		t.Fatalf("leaving round 1's table took round 2's page: %v %q", s.game(), l.Playing())
	}
	g1.Quit()
	g2.Quit()
	for end := time.Now().Add(5 * time.Second); s.game() != nil || l.Playing() != ""; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("leaving the table did not bring the lobby back: %v %q", s.game(), l.Playing())
		}
	}
}
