package netplay

import (
	"context"
	"crypto/rand"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/okey-game/okey/tournament/participant"
)

// TournamentEntry is how this process's seats (okey tournament's own and
// its bots') enter one tournament: the one Create announces here, or the
// one joined by ID (zero: the first heard) or by an invite code's
// Invitation; and how they play its tables.
type TournamentEntry struct {
	// Create, when set, makes the command's own seat the creator; Open
	// makes its tournament a LAN party (no code: the first registrations
	// take the places).
	Create *participant.Create
	Open   bool
	// ID is the tournament's id: --id's or the code's, or set by Admit.
	ID [32]byte
	// Invitation is the code's a joiner registers with, or, set by Admit,
	// the one the creator's bots register with.
	Invitation *participant.Invitation
	// Admission is a code tournament's gate on its creator (Admit).
	Admission *participant.Admission
	// The participants' waits (participant.Config): MoveWithhold is at
	// least Withhold.
	Withhold, MoveWithhold, DrawWait, Linger time.Duration
	Log                                      *slog.Logger
}

// CodeError is Admit's when a code tournament was set up but its invite
// code cannot be made.
type CodeError struct{ Err error }

func (e *CodeError) Error() string { return e.Err.Error() }
func (e *CodeError) Unwrap() error { return e.Err }

// Admit sets up the tournament that seat me creates: its id fixed before
// it is announced (the folder's when me resumes it, else a new one: the
// code names it, and the bots of this process join it, not the first
// one heard) and its admission. It returns the invite code to give out,
// "" for open registration (a *CodeError when the code cannot be made).
// The code holds the tournament's secret: stdout only, never the log.
func (e *TournamentEntry) Admit(me *TournamentSeat) (string, error) {
	key, err := me.Client.SigningKey()
	if err != nil {
		return "", err
	}
	tid, resumed := participant.FolderTournament(me.Dir)
	if !resumed {
		if _, err := rand.Read(e.Create.Nonce[:]); err != nil {
			return "", err
		}
		if tid, err = participant.AnnouncementID(key, *e.Create); err != nil {
			return "", err
		}
	}
	e.ID = tid
	adm, iv, err := participant.CreatorAdmission(filepath.Join(me.Data, "tournaments"), tid, resumed, e.Open, key, me.Net)
	if err != nil || adm == nil {
		return "", err
	}
	e.Admission, e.Invitation = adm, iv
	text, err := me.Client.TournamentCode(tid, iv.Secret)
	if err != nil {
		return "", &CodeError{err}
	}
	return text, nil
}

// Config is the participant configuration of seat s, the i-th of this
// process (0: the command's own, the creator when the entry creates):
// its key, name and folder, its network (registering with the code's
// proof where the entry has one), its tables over s's client within ctx,
// and the entry's waits. The caller adds the seat's mover or Sit, and
// the creator's OnRound.
func (e *TournamentEntry) Config(ctx context.Context, i int, s *TournamentSeat) (participant.Config, error) {
	key, err := s.Client.SigningKey()
	if err != nil {
		return participant.Config{}, err
	}
	n := s.Net
	if e.Invitation != nil && (i > 0 || e.Create == nil) {
		// A code tournament's joiner, or the creator's bots: their
		// registrations go out with the code's proof.
		if n, err = participant.WithCode(n, *e.Invitation); err != nil {
			return participant.Config{}, err
		}
	}
	c := participant.Config{Dir: s.Dir, State: filepath.Join(s.Data, "tournaments"), Key: key, Name: cutName(s.Client.Name(), 32),
		PeerID: s.Client.ID(), Net: n, Tournament: e.ID, Withhold: e.Withhold, MoveWithhold: max(e.MoveWithhold, e.Withhold),
		DrawWait: e.DrawWait, Linger: e.Linger, Log: e.Log.With("participant", s.Name), TableNet: s.TableNet(ctx)}
	if i == 0 {
		c.Create, c.Admission = e.Create, e.Admission
	}
	return c, nil
}
