package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/lan"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/tourney"
	"github.com/okey-game/okey/ui"
)

// lobbyTours is the lobby's side of the tournaments on the LAN: it lists
// those a tourney.Board hears on the tournament topic, and j on one
// registers the player with its persistent identity and plays its part in
// this process, as okey tournament join does for a person: each round's
// match takes the lobby's screen (ui.Game.SitTable), the lobby shows
// again between rounds with the standings.
type lobbyTours struct {
	self    tourSelf
	ctx     context.Context
	g       *ui.Game
	lv      *ui.LobbyView // set once the lobby shows, before any key
	board   *tourney.Board
	log     interface{ Warn(string, ...any) }
	pub     [32]byte
	changes chan struct{}
	// sitNet opens a round's table (c.TournamentTable; tests replace it).
	sitNet func(ctx context.Context, cfg table.Config) (table.Transport, error)

	mu   sync.Mutex
	runs map[[32]byte]*tourRun
	wg   sync.WaitGroup
}

// tourRun is the player's part in one tournament, run by this lobby.
type tourRun struct {
	name  string
	rep   *tournament.Report // the last standings known
	round int
	over  bool
}

// tourFolders is where the lobby keeps a tournament's folder (records and
// transcripts, what okey verify reads): DATA/tournaments/<id>/folder, beside
// the participant's private state of that tournament.
const tourFolders = "tournaments"

// tourSelf is the player as a participant: its persistent identity key,
// data directory, name and peer id.
type tourSelf struct {
	key            ed25519.PrivateKey
	data, name, id string
}

// lanTourSelf is the player of the lobby's client c.
func lanTourSelf(c *lan.Client) (tourSelf, error) {
	key, err := c.SigningKey()
	return tourSelf{key: key, data: c.Data(), name: c.Name(), id: c.ID()}, err
}

func newLobbyTours(ctx context.Context, self tourSelf, g *ui.Game, n tourney.Net, log interface{ Warn(string, ...any) },
	sitNet func(ctx context.Context, cfg table.Config) (table.Transport, error)) *lobbyTours {
	t := &lobbyTours{self: self, ctx: ctx, g: g, board: tourney.NewBoard(n), log: log, changes: make(chan struct{}, 1), runs: map[[32]byte]*tourRun{},
		sitNet: sitNet}
	copy(t.pub[:], self.key.Public().(ed25519.PublicKey))
	go t.board.Run(ctx)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.board.Changes():
				t.changed()
			}
		}
	}()
	return t
}

func (t *lobbyTours) changed() {
	select {
	case t.changes <- struct{}{}:
	default:
	}
}

// TournamentChanges implements ui.TournamentLobby.
func (t *lobbyTours) TournamentChanges() <-chan struct{} { return t.changes }

// Tournaments implements ui.TournamentLobby.
func (t *lobbyTours) Tournaments() []ui.LobbyTournament {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []ui.LobbyTournament
	for _, l := range t.board.List() {
		lt := ui.LobbyTournament{ID: hex.EncodeToString(l.ID[:]), Name: l.Name, Ruleset: l.Ruleset, Rounds: l.Format.Rounds,
			Registered: l.Registered, Players: l.Players, Round: l.Round, Ended: l.Ended, Mine: slices.Contains(l.Keys, t.pub)}
		if l.Format.Points != tournament.DefaultFormat.Points {
			p := l.Format.Points
			lt.Points = fmt.Sprintf("%d-%d-%d-%d", p[0], p[1], p[2], p[3])
		}
		if r := t.runs[l.ID]; r != nil {
			lt.Playing = !r.over
			lt.Ended = lt.Ended || (r.over && r.rep != nil && r.rep.Final != nil)
			if r.rep != nil && r.round > 0 {
				lt.StandingsRound = r.round
				rep := r.rep
				for _, s := range rep.Rounds[r.round-1].Standings {
					lt.Standings = append(lt.Standings, i18n.T("%d. %s: %d points, score %d", s.Place, rep.Players[s.Player].Name, s.Points, s.Score))
				}
			}
		}
		out = append(out, lt)
	}
	return out
}

// JoinTournament implements ui.TournamentLobby: it starts the player's
// participant in tournament id (resuming from its folder when there is one)
// and returns once the board holds its registration.
func (t *lobbyTours) JoinTournament(ctx context.Context, id string) error {
	b, err := hex.DecodeString(id)
	if err != nil || len(b) != 32 {
		return errors.New(i18n.T("not a tournament id: %s", id))
	}
	tid := [32]byte(b)
	var create *tourney.Create
	for _, l := range t.board.List() {
		if l.ID == tid && l.Creator == t.pub {
			// The player's own tournament, resumed: its part is the
			// creator's (the roster, the draws' closes).
			create = &tourney.Create{Name: l.Name, Format: l.Format.String(), Ruleset: l.Ruleset, Players: l.Players}
		}
	}
	return t.start(ctx, tid, create)
}

// CreateTournament implements ui.TournamentCreator: it announces a Swiss
// tournament (okey tournament create's checks) and plays the player's part
// as its creator; it returns once the board lists it with the player
// registered. The tournament is open, as okey tournament create --open
// makes it (a LAN party, protocol.md 9.8 "Admission"): the lobby has no
// place to show an invite code, and its participants' nets (the board's
// taps) carry no admission proofs.
func (t *lobbyTours) CreateTournament(ctx context.Context, name, ruleset string, players, rounds int) (string, error) {
	f, err := tournament.ParseFormat(fmt.Sprintf("swiss:rounds=%d", rounds))
	if err != nil {
		return "", err
	}
	if _, err := tournament.CheckSetup(f.String(), ruleset, players); err != nil {
		return "", err
	}
	if err := tournament.CheckName(name); err != nil {
		return "", err
	}
	cr := tourney.Create{Name: name, Format: f.String(), Ruleset: ruleset, Players: players}
	if _, err := rand.Read(cr.Nonce[:]); err != nil {
		return "", err
	}
	tid, err := tourney.AnnouncementID(t.self.key, cr)
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(tid[:]), t.start(ctx, tid, &cr)
}

// start runs the player's part in tournament tid (its creator's with
// create) unless it runs already, and waits until the board lists the
// player registered.
func (t *lobbyTours) start(ctx context.Context, tid [32]byte, create *tourney.Create) error {
	id := hex.EncodeToString(tid[:])
	t.mu.Lock()
	if r := t.runs[tid]; r != nil && !r.over {
		t.mu.Unlock()
		return nil
	}
	run := &tourRun{name: id[:8]}
	if create != nil {
		run.name = create.Name
	}
	for _, l := range t.board.List() {
		if l.ID == tid {
			run.name = l.Name
		}
	}
	t.runs[tid] = run
	t.mu.Unlock()
	state := filepath.Join(t.self.data, tourFolders)
	dir := filepath.Join(state, id, "folder")
	net := t.board.Tap()
	p, err := tourney.New(tourney.Config{Dir: dir, State: state, Key: t.self.key, Name: cutTo(t.self.name, 32), PeerID: t.self.id, Net: net, Tournament: tid, Create: create,
		Withhold: 2 * time.Minute, MoveWithhold: 10 * time.Minute, Linger: 30 * time.Second,
		Sit: func(ref tournament.Ref, cfg table.Config, seat int) tourney.Sitting {
			return t.sit(filepath.Join(dir, tourney.TranscriptName(ref)), ref, seat)
		},
		TableNet: func(_ tournament.Ref, cfg table.Config) (table.Transport, error) {
			return t.sitNet(t.ctx, cfg)
		},
		OnRound: func(rep *tournament.Report, round int) {
			t.mu.Lock()
			run.rep, run.round = rep, round
			t.mu.Unlock()
			t.changed()
		}})
	if err != nil {
		t.board.Untap(net)
		return t.stop(tid, err)
	}
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		defer t.board.Untap(net)
		rep, err := p.Run(t.ctx)
		t.mu.Lock()
		run.over = true
		if rep != nil && rep.Final != nil {
			run.rep, run.round = rep, len(rep.Rounds)
		}
		t.mu.Unlock()
		t.changed()
		switch {
		case errors.Is(err, tourney.ErrLeft):
			t.lv.Say(i18n.T("you left the tournament: j on it resumes your part while it runs"))
		case err != nil && t.ctx.Err() == nil:
			t.log.Warn("tournament", "err", err)
			t.lv.Say(i18n.T("the tournament stopped: %s", ui.Explain(err)))
		case err == nil:
			t.lv.Say(i18n.T("the tournament is over: okey verify %s checks it", dir))
		}
	}()
	// Registered once the board holds the player's registration (a part
	// resumed after the roster is out is registered already).
	for {
		for _, l := range t.board.List() {
			if l.ID == tid && slices.Contains(l.Keys, t.pub) {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return errors.New(i18n.T("the registration is not out yet; it goes on in the background"))
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// unended names the tournaments whose part this lobby still runs.
func (t *lobbyTours) unended() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for _, r := range t.runs {
		if !r.over {
			out = append(out, r.name)
		}
	}
	slices.Sort(out)
	return out
}

func (t *lobbyTours) stop(tid [32]byte, err error) error {
	t.mu.Lock()
	delete(t.runs, tid)
	t.mu.Unlock()
	return err
}

// sit is the participant's Config.Sit: the round's match on the lobby's
// screen; its end panel goes back to the lobby.
func (t *lobbyTours) sit(path string, ref tournament.Ref, seat int) tourney.Sitting {
	left := t.g.SitTable(seat, i18n.Mark("j on the tournament in the lobby resumes your part while it runs."), func() { t.g.ShowLobbyAgain(t.lv) })
	t.g.SetContext(i18n.T("tournament round %d, table %d", ref.Round, ref.Table+1))
	t.g.Say(i18n.T("tournament round %d, table %d: the match begins", ref.Round, ref.Table+1))
	// The last step's time: a table the other seats ended while the
	// player was to move says how long the player did not move.
	var last atomic.Int64
	last.Store(time.Now().UnixNano())
	return tourney.Sitting{Mover: t.g, Left: left,
		OnStep: func(m *table.Machine, v *engine.View) {
			last.Store(time.Now().UnixNano())
			t.g.OnStep(m, v)
		},
		Done: func(tr *table.Transcript, _ error) {
			if tr == nil {
				return
			}
			rep := table.Verify(tr)
			end := &ui.MatchEnd{Transcript: path, Verified: rep.Honest, Verdict: ui.Verdict(rep),
				Unfinished: rep.Status() == table.StatusUnfinished, Ranking: rep.Ranking}
			if end.Unfinished {
				end.Note = deadTableNote(rep, seat, time.Since(time.Unix(0, last.Load())))
				t.lv.Say(i18n.T("round %d, table %d ended unfinished: you stay in for the next draw", ref.Round, ref.Table+1))
			}
			t.g.Finish(end)
		}}
}

// idleText is a time the player did not move, in minutes (seconds under
// one).
func idleText(d time.Duration) string {
	if d < time.Minute {
		return i18n.T("%d s", int(d.Seconds()))
	}
	return i18n.T("%d min", int(d.Minutes()))
}

// deadTableNote says why a tournament table ended unfinished for the
// player at seat: the other seats stopped waiting for the player's move
// (which it did not make for idle), or for another seat's.
func deadTableNote(rep *table.Report, seat int, idle time.Duration) string {
	if rep.Next != nil && rep.Next.Seat == seat {
		return i18n.T("This match ended unfinished: you did not move for %s, and the other seats stopped waiting. The standings count it as the tournament's records say; your part goes on to the next round's draw (q: the lobby and the standings).", idleText(idle))
	}
	return i18n.T("This match ended unfinished: the seat it waited for stopped. The standings count it as the tournament's records say; your part goes on to the next round's draw (q: the lobby and the standings).")
}

// wait waits a little for the participants to stop (the lobby closes).
func (t *lobbyTours) wait() {
	done := make(chan struct{})
	go func() { t.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
}

// tourLobby is the lobby of okey play with tournaments (when the
// tournament topic could be joined).
type tourLobby struct {
	*watchLobby
	*lobbyTours
}

var _ ui.TournamentLobby = tourLobby{}

var _ ui.TournamentCreator = tourLobby{}
