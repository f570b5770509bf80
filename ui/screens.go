package ui

import (
	"bytes"
	"context"
	"io"
	"sync"
)

// Screens shows table screens one after another on the goroutine that
// calls Run (a command's main one, which owns the terminal), each handed
// over by Show from the goroutine that plays its match; what Print writes
// waits while a screen is up, and goes out when it closes.
type Screens struct {
	games chan *Game
	out   io.Writer

	mu      sync.Mutex
	showing bool
	pending bytes.Buffer
	current *Game // the last screen handed over
}

// NewScreens returns Screens that print to out.
func NewScreens(out io.Writer) *Screens {
	return &Screens{games: make(chan *Game, 1), out: out}
}

// Show hands g over to Run. The last screen handed over, still up, is
// closed first: its match is over.
func (s *Screens) Show(g *Game) {
	s.mu.Lock()
	if s.current != nil {
		s.current.Quit()
	}
	s.current = g
	s.mu.Unlock()
	s.games <- g
}

// Print writes what f writes to the output, at once when no screen is up,
// else once it closes.
func (s *Screens) Print(f func(io.Writer)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.showing {
		f(&s.pending)
		return
	}
	f(s.out)
}

// Run shows each screen handed over in turn until over is closed; a
// screen up when ctx ends is closed, and one handed over after is closed
// at once, so that its seat does not wait. Its error is a screen's that
// could not run (no terminal).
func (s *Screens) Run(ctx context.Context, over <-chan struct{}) error {
	for {
		select {
		case <-over:
			return nil
		case <-ctx.Done():
			select {
			case g := <-s.games:
				g.Quit()
			case <-over:
				return nil
			}
		case g := <-s.games:
			if err := s.run(ctx, g); err != nil {
				return err
			}
		}
	}
}

// run runs one screen, closing it when ctx ends, and prints what waited.
func (s *Screens) run(ctx context.Context, g *Game) error {
	s.mu.Lock()
	s.showing = true
	s.mu.Unlock()
	stop := context.AfterFunc(ctx, g.Quit)
	err := g.Run()
	stop()
	s.mu.Lock()
	s.showing = false
	s.out.Write(s.pending.Bytes())
	s.pending.Reset()
	s.mu.Unlock()
	return err
}
