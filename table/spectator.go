package table

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// A spectator is a table node without a seat (protocol.md 5.9): it takes
// the same signed envelopes as the seats, runs the same machine in
// lockstep, catches up from the members with the same fetches (5.7), and
// keeps the same transcript, but it never speaks, never serves, and holds
// no key and no secret: a seat's rack opens only with that seat's own
// share, which no spectator ever has, so it sees what a kibitzer behind no
// one sees until each hand's audit makes every tile public.

// ErrSpectator is returned (wrapped) when a spectator is asked to do what
// only a seat may: speak, sign, or hold a hand's secret.
var ErrSpectator = errors.New("table: a spectator has no seat")

// SpectatorConfig configures a Spectator. Zero values get the documented
// defaults (those of PeerConfig).
type SpectatorConfig struct {
	Table Config
	// Transport feeds the table's envelopes and the catch-up fetches. The
	// spectator never calls its Broadcast or Serve.
	Transport Transport
	// Store keeps the chain as it grows (default: in memory). A spectator
	// never saves a secret in it.
	Store Store
	Log   *slog.Logger
	// Stall is how long the spectator waits without progress before it
	// asks the members for what it missed (default 2 s). It asks at once
	// when it starts, so that a spectator that joins mid-match sees the
	// current position without waiting.
	Stall time.Duration
	// Withhold is how long it waits without progress before it stops,
	// saying which seat the table waits for (default 10 min: a spectator
	// names no one and must not give up before the seats do).
	Withhold time.Duration
	// OnStep is called after every applied step (from Run's goroutine),
	// also for the steps replayed from Store when it resumes.
	OnStep func(m *Machine)
	// PollFrom is the seat the spectator polls first (it stays with a
	// seat while it answers): callers spread their spectators over the
	// seats with it.
	PollFrom int
}

// Spectator follows a table without a seat (see the comment above).
type Spectator struct {
	c      SpectatorConfig
	n      *node
	ticked time.Time
	log    *slog.Logger
}

// NewSpectator makes a spectator and, when its store holds a transcript,
// replays it to resume where it stopped.
func NewSpectator(c SpectatorConfig) (*Spectator, error) {
	if c.Store == nil {
		c.Store = NewMemStore(c.Table)
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.Stall == 0 {
		c.Stall = 2 * time.Second
	}
	if c.Withhold == 0 {
		c.Withhold = 10 * time.Minute
	}
	if c.Transport == nil {
		return nil, errors.New("table: NewSpectator: nil transport")
	}
	m, err := NewMachine(c.Table, nil)
	if err != nil {
		return nil, err
	}
	s := &Spectator{c: c, log: c.Log}
	w := s.ticks(c.Withhold)
	s.n = newNode(nodeConfig{Table: c.Table, Seat: NoSeat, Log: c.Log, StallTicks: ticksPerStall,
		WithholdTicks: w, MoveWithholdTicks: w, Spectator: true, PollFrom: max(c.PollFrom, 0) % len(c.Table.Seats)}, m)
	t, err := c.Store.Load()
	if err != nil {
		return nil, fmt.Errorf("table: resume: %w", err)
	}
	if t != nil {
		for i, raw := range t.Chain {
			env, err := DecodeEnvelope(raw)
			if err != nil {
				return nil, fmt.Errorf("table: resume: record %d: %w", i, err)
			}
			if err := s.n.applyEnv(env); err != nil {
				return nil, fmt.Errorf("table: resume: step %d: %w", i, err)
			}
			s.stepped()
		}
		s.log.Info("spectator resumed", "step", m.Step(), "hand", m.HandNumber())
	}
	return s, nil
}

// NoSeat is the seat of a node that has none: a spectator.
const NoSeat = -1

// Machine returns the spectator's protocol state (read it from OnStep or
// after Run).
func (s *Spectator) Machine() *Machine { return s.n.m }

// Chain returns the raw envelopes applied so far.
func (s *Spectator) Chain() [][]byte { return append([][]byte(nil), s.n.chain...) }

// Rejected returns how many received messages the spectator dropped (not
// decodable, another table, a bad signature, beyond its buffer).
func (s *Spectator) Rejected() int { return s.n.rejects }

func (s *Spectator) stepped() {
	if s.c.OnStep != nil {
		s.c.OnStep(s.n.m)
	}
}

func (s *Spectator) tickEvery() time.Duration { return max(s.c.Stall/ticksPerStall, time.Millisecond) }

func (s *Spectator) ticks(d time.Duration) int {
	t := s.tickEvery()
	return max(1, int((d+t-1)/t))
}

func (s *Spectator) giveTicks() {
	every := s.tickEvery()
	for now := time.Now(); !s.ticked.Add(every).After(now); {
		s.ticked = s.ticked.Add(every)
		s.n.Tick()
	}
}

// Run follows the table until the match ends, a violation aborts it, the
// seat to speak stays silent for the withhold time, or ctx ends (the
// spectator leaves; its store resumes it later). How the match ended is in
// the Result, as for a seat; a violation's evidence is saved in the store
// (never sent: a spectator publishes nothing).
func (s *Spectator) Run(ctx context.Context) (Result, error) {
	tick := time.NewTicker(s.tickEvery())
	defer tick.Stop()
	s.ticked = time.Now()
	answers := make(chan fetched, 4)
	done := make(chan struct{})
	defer close(done)
	for {
		s.giveTicks()
		rd := s.n.Ready()
		switch {
		case rd.Violation != nil:
			for _, e := range rd.Violation.Evidence {
				if !inChain(s.n.chain, e) {
					if err := s.c.Store.Append(RecEvidence, e); err != nil {
						return Result{Machine: s.n.m, Violation: rd.Violation}, err
					}
				}
			}
			return Result{Machine: s.n.m, Violation: rd.Violation}, nil
		case rd.Failure != nil:
			return Result{Machine: s.n.m, Failure: rd.Failure}, nil
		case rd.Done:
			return Result{Machine: s.n.m}, nil
		case rd.Stall != nil:
			st := rd.Stall
			return Result{Machine: s.n.m, Stalled: &Stall{Seat: st.Seat, Kind: st.Kind, Step: st.Step,
				Waited: time.Duration(st.Ticks) * s.tickEvery()}}, nil
		}
		if rd.Speak != 0 {
			// Never: a node without a seat is never the one to speak.
			return Result{Machine: s.n.m}, fmt.Errorf("%w: asked to send %v", ErrSpectator, rd.Speak)
		}
		if len(rd.Fetches) > 0 {
			for _, f := range rd.Fetches {
				s.startFetch(ctx, f, answers, done)
			}
			_ = s.n.Advance(ready{Fetches: rd.Fetches})
			continue
		}
		if rd.Apply != nil {
			step := s.n.m.Step()
			s.giveTicks()
			_ = s.n.Advance(rd) // a violation ends the match: the next Ready says so
			if s.n.m.Step() != step {
				save := s.c.Store.Append
				if l, ok := s.c.Store.(interface{ AppendLazy(byte, []byte) error }); ok {
					save = l.AppendLazy
				}
				if err := save(RecEnvelope, rd.Apply.Raw); err != nil {
					return Result{Machine: s.n.m}, err
				}
				s.stepped()
			}
			continue
		}
		select {
		case <-ctx.Done():
			return Result{Machine: s.n.m}, ctx.Err()
		case pkt, ok := <-s.c.Transport.Inbox():
			if !ok {
				return Result{Machine: s.n.m}, ErrClosed
			}
			s.n.Step(pkt.Data)
		case <-tick.C:
		case a := <-answers:
			s.n.Fetched(a.id, a.frames, a.err != nil)
		}
	}
}

func (s *Spectator) startFetch(ctx context.Context, f fetchReq, answers chan<- fetched, done <-chan struct{}) {
	startFetch(ctx, s.c.Transport, s.c.Table.Seats[f.Seat].ID, time.Duration(f.Within)*s.tickEvery(), f, answers, done)
}
