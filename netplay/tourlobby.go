package netplay

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/tournament/participant"
)

// TourLobby is a lobby's side of the tournaments on the LAN, for either
// front end (the terminal's lobby, the web lobby's page): the rows each
// lists, and joining or announcing one by its id as the lobby names it
// (64 hexadecimal digits), over a participant.Service.
type TourLobby struct{ svc *participant.Service }

// NewTourLobby is the lobby's side of svc's tournaments.
func NewTourLobby(svc *participant.Service) *TourLobby { return &TourLobby{svc: svc} }

// TourRow is a tournament as a lobby lists it (ui.LobbyTournament has the
// same fields: a front end converts it).
type TourRow struct {
	ID      string // the tournament id, 64 hexadecimal digits
	Name    string
	Ruleset string // every match's preset[:options]
	Rounds  int
	Points  string // the placement points when not the default, e.g. 4-2-1-0
	// Registered players of the Players the announcement wants.
	Registered, Players int
	// Round is 0 while players register, else the round under way.
	Round int
	Ended bool
	// Mine: the player registered (with this identity); Playing: this
	// process runs the player's part in it.
	Mine, Playing bool
	// Standings are the lines of the standings after the last round this
	// process knows the standings of (StandingsRound), when it does.
	Standings      []string
	StandingsRound int
}

// Rows lists the tournaments heard, with the player's part in each.
func (t *TourLobby) Rows() []TourRow {
	var out []TourRow
	for _, e := range t.svc.List() {
		r := TourRow{ID: hex.EncodeToString(e.ID[:]), Name: e.Name, Ruleset: e.Ruleset, Rounds: e.Format.Rounds,
			Registered: e.Registered, Players: e.Players, Round: e.Listing.Round, Ended: e.Ended || e.Over, Mine: e.Mine, Playing: e.Playing}
		if e.Format.Points != tournament.DefaultFormat.Points {
			p := e.Format.Points
			r.Points = fmt.Sprintf("%d-%d-%d-%d", p[0], p[1], p[2], p[3])
		}
		if rep := e.Report; rep != nil && e.Round > 0 && e.Round <= len(rep.Rounds) {
			r.StandingsRound = e.Round
			for _, s := range rep.Rounds[e.Round-1].Standings {
				r.Standings = append(r.Standings, i18n.T("%d. %s: %d points, score %d", s.Place, rep.Players[s.Player].Name, s.Points, s.Score))
			}
		}
		out = append(out, r)
	}
	return out
}

// Changes is signalled when the rows may have changed.
func (t *TourLobby) Changes() <-chan struct{} { return t.svc.Changes() }

// Join starts the player's part in tournament id (resuming from its folder
// when there is one) and returns once the board holds its registration.
func (t *TourLobby) Join(ctx context.Context, id string) error {
	b, err := hex.DecodeString(id)
	if err != nil || len(b) != 32 {
		return errors.New(i18n.T("not a tournament id: %s", id))
	}
	return registered(t.svc.Join(ctx, [32]byte(b)))
}

// Create announces a Swiss tournament (okey tournament create's checks)
// and plays the player's part as its creator; it returns its id once the
// board lists it with the player registered. The tournament is open, as
// okey tournament create --open makes it (a LAN party, protocol.md 9.8
// "Admission"): a lobby has no place to show an invite code.
func (t *TourLobby) Create(ctx context.Context, name, ruleset string, players, rounds int) (string, error) {
	tid, err := t.svc.Create(ctx, name, ruleset, players, rounds)
	if err != nil && tid == ([32]byte{}) {
		return "", err
	}
	return hex.EncodeToString(tid[:]), registered(err)
}

// registered is a Join's or Create's error for the lobby's message line.
func registered(err error) error {
	if errors.Is(err, participant.ErrNotRegisteredYet) {
		return errors.New(i18n.T("the registration is not out yet; it goes on in the background"))
	}
	return err
}

// Unended names the tournaments whose part this lobby still runs.
func (t *TourLobby) Unended() []string { return t.svc.Unended() }

// Wait waits a little for the parts to stop (the lobby closes).
func (t *TourLobby) Wait() { t.svc.Wait(5 * time.Second) }

// IdleText is a time the player did not move, in minutes (seconds under
// one).
func IdleText(d time.Duration) string {
	if d < time.Minute {
		return i18n.T("%d s", int(d.Seconds()))
	}
	return i18n.T("%d min", int(d.Minutes()))
}

// DeadTableNote says why a tournament table ended unfinished for the
// player at seat (rep its verification): the other seats stopped waiting
// for the player's move (which it did not make for idle), or for another
// seat's; leave is the front end's way back to the lobby ("q").
func DeadTableNote(rep *table.Report, seat int, idle time.Duration, leave string) string {
	if rep.Next != nil && rep.Next.Seat == seat {
		return i18n.T("This match ended unfinished: you did not move for %s, and the other seats stopped waiting. The standings count it as the tournament's records say; your part goes on to the next round's draw (%s: the lobby and the standings).", IdleText(idle), leave)
	}
	return i18n.T("This match ended unfinished: the seat it waited for stopped. The standings count it as the tournament's records say; your part goes on to the next round's draw (%s: the lobby and the standings).", leave)
}
