package participant

import (
	"cmp"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
)

// FoldersDir is where a player's tournaments are kept under its data
// directory: FoldersDir/<id>/folder is a tournament's folder (records and
// transcripts, what okey verify reads), beside the participant's private
// state of that tournament.
const FoldersDir = "tournaments"

// Self is a player as a participant: its persistent identity key, data
// directory, name and peer id.
type Self struct {
	Key    ed25519.PrivateKey
	Data   string
	Name   string
	PeerID string
}

// ServiceOptions are what a Service asks of its front end.
type ServiceOptions struct {
	// Sit gives a round's table to the player: the transcript's path in
	// the tournament's folder, the table and the player's seat.
	Sit func(path string, ref tournament.Ref, seat int) Sitting
	// TableNet opens a round's table on the network.
	TableNet func(ctx context.Context, cfg table.Config) (table.Transport, error)
	// Ended is told when the player's part in a tournament ends: err nil
	// when the tournament is over (dir is its folder), ErrLeft when the
	// player left, another error when it stopped (not called for the
	// Service's context's end).
	Ended func(dir string, err error)
	// Log takes the warnings ("": none).
	Log interface{ Warn(string, ...any) }

	// linger, in tests, replaces serviceLinger.
	linger time.Duration
}

// serviceLinger is how long a Service's part keeps answering after its
// final standings (Config.Linger), for the players still fetching.
const serviceLinger = 30 * time.Second

// ErrNotRegisteredYet is Join's or Create's when its context ended before
// the board held the player's registration; the part goes on in the
// background.
var ErrNotRegisteredYet = errors.New("participant: the registration is not out yet; it goes on in the background")

// Service is a player's side of the tournaments on a network (the
// lobby's): a Board lists those announced, and Join or Create runs the
// player's part in one, in the background, until the Service's context
// ends.
type Service struct {
	self    Self
	ctx     context.Context
	o       ServiceOptions
	board   *Board
	pub     [32]byte
	changes chan struct{}

	mu   sync.Mutex
	runs map[[32]byte]*serviceRun
	wg   sync.WaitGroup
}

// serviceRun is the player's part in one tournament.
type serviceRun struct {
	name  string
	rep   *tournament.Report // the last standings known
	round int
	over  bool
}

// Entry is a tournament a Service lists: the board's listing, whether the
// player is in it (Mine), and the player's part run here: Playing, and
// the last standings known (Report after Round rounds; nil: none).
type Entry struct {
	Listing
	Mine    bool
	Run     bool // a part runs or ran here
	Playing bool
	Over    bool // the part ended with the tournament's final standings
	Report  *tournament.Report
	Round   int
}

// NewService starts listing the tournaments heard on n; it runs until ctx
// ends.
func NewService(ctx context.Context, self Self, n Net, o ServiceOptions) *Service {
	if o.Log == nil {
		o.Log = nopWarn{}
	}
	s := &Service{self: self, ctx: ctx, o: o, board: NewBoard(n), changes: make(chan struct{}, 1), runs: map[[32]byte]*serviceRun{}}
	copy(s.pub[:], self.Key.Public().(ed25519.PublicKey))
	go s.board.Run(ctx)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-s.board.Changes():
				s.changed()
			}
		}
	}()
	return s
}

type nopWarn struct{}

func (nopWarn) Warn(string, ...any) {}

// Board is the board the Service lists from.
func (s *Service) Board() *Board { return s.board }

func (s *Service) changed() {
	select {
	case s.changes <- struct{}{}:
	default:
	}
}

// Changes is signalled when the list may have changed.
func (s *Service) Changes() <-chan struct{} { return s.changes }

// List lists the tournaments, with the player's part in each.
func (s *Service) List() []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Entry
	for _, l := range s.board.List() {
		e := Entry{Listing: l, Mine: slices.Contains(l.Keys, s.pub)}
		if r := s.runs[l.ID]; r != nil {
			e.Run, e.Playing = true, !r.over
			e.Over = r.over && r.rep != nil && r.rep.Final != nil
			e.Report, e.Round = r.rep, r.round
		}
		out = append(out, e)
	}
	return out
}

// Join starts the player's part in tournament tid (resuming from its
// folder when there is one; the creator's part in the player's own) and
// returns once the board holds its registration (ErrNotRegisteredYet when
// ctx ends first).
func (s *Service) Join(ctx context.Context, tid [32]byte) error {
	var create *Create
	for _, l := range s.board.List() {
		if l.ID == tid && l.Creator == s.pub {
			// The player's own tournament, resumed: its part is the
			// creator's (the roster, the draws' closes).
			create = &Create{Name: l.Name, Format: l.Format.String(), Ruleset: l.Ruleset, Players: l.Players}
		}
	}
	return s.start(ctx, tid, create)
}

// Create announces a Swiss tournament of rounds (okey tournament create's
// checks) and plays the player's part as its creator; it returns its id
// once the board lists it with the player registered. The tournament is
// open (protocol.md 9.8 "Admission"): a Service's nets (the board's taps)
// carry no admission proofs.
func (s *Service) Create(ctx context.Context, name, ruleset string, players, rounds int) ([32]byte, error) {
	f, err := tournament.ParseFormat(fmt.Sprintf("swiss:rounds=%d", rounds))
	if err != nil {
		return [32]byte{}, err
	}
	if _, err := tournament.CheckSetup(f.String(), ruleset, players); err != nil {
		return [32]byte{}, err
	}
	if err := tournament.CheckName(name); err != nil {
		return [32]byte{}, err
	}
	cr := Create{Name: name, Format: f.String(), Ruleset: ruleset, Players: players}
	if _, err := rand.Read(cr.Nonce[:]); err != nil {
		return [32]byte{}, err
	}
	tid, err := AnnouncementID(s.self.Key, cr)
	if err != nil {
		return [32]byte{}, err
	}
	return tid, s.start(ctx, tid, &cr)
}

// start runs the player's part in tournament tid (its creator's with
// create) unless it runs already, and waits until the board lists the
// player registered.
func (s *Service) start(ctx context.Context, tid [32]byte, create *Create) error {
	id := hex.EncodeToString(tid[:])
	s.mu.Lock()
	if r := s.runs[tid]; r != nil && !r.over {
		s.mu.Unlock()
		return nil
	}
	run := &serviceRun{name: id[:8]}
	if create != nil {
		run.name = create.Name
	}
	for _, l := range s.board.List() {
		if l.ID == tid {
			run.name = l.Name
		}
	}
	s.runs[tid] = run
	s.mu.Unlock()
	state := filepath.Join(s.self.Data, FoldersDir)
	dir := filepath.Join(state, id, "folder")
	net := s.board.Tap()
	p, err := New(Config{Dir: dir, State: state, Key: s.self.Key, Name: cutTo(s.self.Name, 32), PeerID: s.self.PeerID, Net: net, Tournament: tid, Create: create,
		Withhold: 2 * time.Minute, MoveWithhold: 10 * time.Minute, Linger: cmp.Or(s.o.linger, serviceLinger),
		Sit: func(ref tournament.Ref, cfg table.Config, seat int) Sitting {
			return s.o.Sit(filepath.Join(dir, TranscriptName(ref)), ref, seat)
		},
		TableNet: func(_ tournament.Ref, cfg table.Config) (table.Transport, error) {
			return s.o.TableNet(s.ctx, cfg)
		},
		OnRound: func(rep *tournament.Report, round int) {
			s.mu.Lock()
			run.rep, run.round = rep, round
			s.mu.Unlock()
			s.changed()
		}})
	if err != nil {
		s.board.Untap(net)
		s.mu.Lock()
		delete(s.runs, tid)
		s.mu.Unlock()
		return err
	}
	s.wg.Go(func() {
		defer s.board.Untap(net)
		rep, err := p.Run(s.ctx)
		s.mu.Lock()
		run.over = true
		if rep != nil && rep.Final != nil {
			run.rep, run.round = rep, len(rep.Rounds)
		}
		s.mu.Unlock()
		s.changed()
		if err != nil && !errors.Is(err, ErrLeft) && s.ctx.Err() == nil {
			s.o.Log.Warn("tournament", "err", err)
		}
		if s.o.Ended != nil && (err == nil || errors.Is(err, ErrLeft) || s.ctx.Err() == nil) {
			s.o.Ended(dir, err)
		}
	})
	// Registered once the board holds the player's registration (a part
	// resumed after the roster is out is registered already).
	for {
		for _, l := range s.board.List() {
			if l.ID == tid && slices.Contains(l.Keys, s.pub) {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ErrNotRegisteredYet
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Unended names the tournaments whose part this Service still runs.
func (s *Service) Unended() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, r := range s.runs {
		if !r.over {
			out = append(out, r.name)
		}
	}
	slices.Sort(out)
	return out
}

// Wait waits for the parts to stop (after the context ended), at most max.
func (s *Service) Wait(max time.Duration) {
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(max):
	}
}

// cutTo shortens s to at most n bytes, at a character boundary.
func cutTo(s string, n int) string {
	for len(s) > n || !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
