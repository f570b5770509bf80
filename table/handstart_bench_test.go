package table

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/okey-game/okey/engine"
)

// stampTransport records when its seat sends each envelope and when each
// envelope from another seat reaches it (before the peer reads it).
type stampTransport struct {
	Transport
	seat  int
	clock *startClock
	in    chan Packet
}

func (s *stampTransport) Inbox() <-chan Packet { return s.in }

func (s *stampTransport) Broadcast(ctx context.Context, data []byte) error {
	s.clock.sent(s.seat, data)
	return s.Transport.Broadcast(ctx, data)
}

func (s *stampTransport) forward() {
	defer close(s.in)
	for p := range s.Transport.Inbox() {
		s.clock.received(s.seat, p.Data)
		s.in <- p
	}
}

// startClock holds the times of one hand start, by step: the send of each
// envelope (by its speaker), its arrival and its application at each seat,
// and the time each seat's deal was complete (its machine waiting for the
// first move).
type startClock struct {
	mu      sync.Mutex
	n       int
	kind    map[uint32]Kind
	speaker map[uint32]int
	send    map[uint32]time.Time
	recv    []map[uint32]time.Time
	applied []map[uint32]time.Time
	dealt   []time.Time
	all     chan struct{}
	left    int
}

func newStartClock(n int) *startClock {
	c := &startClock{n: n, kind: map[uint32]Kind{}, speaker: map[uint32]int{}, send: map[uint32]time.Time{},
		dealt: make([]time.Time, n), all: make(chan struct{}), left: n}
	for range n {
		c.recv = append(c.recv, map[uint32]time.Time{})
		c.applied = append(c.applied, map[uint32]time.Time{})
	}
	return c
}

// sent notes the first time the step of raw was sent, by seat.
func (c *startClock) sent(seat int, raw []byte) {
	c.note(raw, func(env *Envelope, now time.Time) {
		if _, ok := c.send[env.Step]; !ok {
			c.send[env.Step], c.kind[env.Step], c.speaker[env.Step] = now, env.Kind, seat
		}
	})
}

// received notes the first time the step of raw arrived at seat.
func (c *startClock) received(seat int, raw []byte) {
	c.note(raw, func(env *Envelope, now time.Time) {
		if _, ok := c.recv[seat][env.Step]; !ok {
			c.recv[seat][env.Step] = now
		}
	})
}

// note decodes raw (a message that is no envelope is not timed) and calls
// f with it and the time it was seen, under the clock's lock.
func (c *startClock) note(raw []byte, f func(env *Envelope, now time.Time)) {
	now := time.Now()
	env, err := DecodeEnvelope(raw)
	if err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	f(env, now)
}

func (c *startClock) step(seat int, m *Machine) {
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.applied[seat][m.Step()-1] = now
	if _, kind := m.Expect(); kind == KindMove && m.Started() && c.dealt[seat].IsZero() {
		c.dealt[seat] = now
		if c.left--; c.left == 0 {
			close(c.all)
		}
	}
}

// handStart is one hand start's figures.
type handStart struct {
	// dealt is, per seat, the time from seat 0's shuffle to the seat's
	// deal complete.
	dealt []time.Duration
	// after lists the steps after the last re-key up to the deal (the
	// open and deal rounds): their kind and speaker, and when each was
	// sent, from seat 0's shuffle.
	after  []string
	sentAt []time.Duration
	// parts are the sequential steps (each shuffle and re-key) with their
	// parts, in order, and then "deal" (from the last re-key to the last
	// seat's deal complete).
	parts []stepParts
}

// stepParts splits the time of one sequential step, by the seat that
// speaks it: the network (from the previous speaker's send to the message's
// arrival here), the check of the previous message (arrival to applied
// here), the build of this seat's own (applied to sent), and after it the
// check of its own message (sent to applied by the sender itself: not on
// the way to the next seat, but it takes a core).
type stepParts struct {
	name                       string
	wait, check, build, ownApp time.Duration
}

// figures reads the hand start out of the clock.
func (c *startClock) figures() (handStart, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var steps []uint32
	for s, k := range c.kind {
		if k == KindShuffle || k == KindRekey {
			steps = append(steps, s)
		}
	}
	slices.Sort(steps)
	if len(steps) != 2*c.n {
		return handStart{}, fmt.Errorf("%d shuffle and re-key steps, want %d", len(steps), 2*c.n)
	}
	t0 := c.send[steps[0]]
	var hs handStart
	for _, d := range c.dealt {
		hs.dealt = append(hs.dealt, d.Sub(t0))
	}
	for i, s := range steps {
		seat := c.speaker[s]
		p := stepParts{name: fmt.Sprintf("%v%d", c.kind[s], seat)}
		prev := s - 1
		if i > 0 {
			p.wait = c.recv[seat][prev].Sub(c.send[prev])
			p.check = c.applied[seat][prev].Sub(c.recv[seat][prev])
		}
		p.build = c.send[s].Sub(c.applied[seat][prev])
		p.ownApp = c.applied[seat][s].Sub(c.send[s])
		hs.parts = append(hs.parts, p)
	}
	last := steps[len(steps)-1]
	for s := last + 1; ; s++ {
		k, ok := c.kind[s]
		if !ok || k == KindMove {
			break
		}
		hs.after = append(hs.after, fmt.Sprintf("%v%d", k, c.speaker[s]))
		hs.sentAt = append(hs.sentAt, c.send[s].Sub(t0))
	}
	hs.parts = append(hs.parts, stepParts{name: "deal", wait: slices.Max(hs.dealt) - c.send[last].Sub(t0)})
	return hs, nil
}

// playHandStart plays a table's hello and its first hand's start (n seats
// over the in-memory network with a fixed one-way latency) and stops once
// every seat's deal is complete. o gives the seeds and the seats' random
// sources (when set).
func playHandStart(tb testing.TB, n int, latency time.Duration, o LocalOptions) (handStart, *LocalResult) {
	tb.Helper()
	clock := newStartClock(n)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	go func() {
		select {
		case <-clock.all:
			cancel()
		case <-ctx.Done():
		}
	}()
	ms := make([]Mover, n)
	for i := range ms {
		ms[i] = noMover{}
	}
	o.Ruleset, o.Movers, o.Faults, o.Withhold = "classic", ms, Faults{Latency: latency}, time.Minute
	o.wrap = func(seat int, t Transport) Transport {
		s := &stampTransport{Transport: t, seat: seat, clock: clock, in: make(chan Packet, 4096)}
		go s.forward()
		return s
	}
	o.onStep = func(seat int, m *Machine, _ *engine.View) { clock.step(seat, m) }
	res, err := RunLocal(ctx, o)
	select {
	case <-clock.all:
	default:
		tb.Fatalf("the hand did not start: %v", err)
	}
	hs, err := clock.figures()
	if err != nil {
		tb.Fatal(err)
	}
	return hs, res
}

// noMover is never asked: the measurement stops before the first move.
type noMover struct{}

func (noMover) Move(*engine.Hand, *engine.View) (engine.Action, error) {
	return engine.Action{}, fmt.Errorf("table: noMover asked for a move")
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkHandStart measures a hand's start at a 100 ms round trip: four
// seats over the in-memory network with 50 ms one-way latency, from seat
// 0's shuffle to each seat's deal complete (the table waiting for the first
// move). Reported: p50-ms (the median over the hands of the last seat's
// deal complete) and, with -v, the median of each part of each sequential
// step (see stepParts) over the hands. All seats share this machine's
// cores, as in the NAT lab.
func BenchmarkHandStart(b *testing.B) {
	const n, latency = 4, 50 * time.Millisecond
	var starts []handStart
	seed := uint64(0)
	for b.Loop() {
		seed++
		hs, _ := playHandStart(b, n, latency, LocalOptions{Seed: 400 + seed})
		starts = append(starts, hs)
	}
	var last []time.Duration
	for _, hs := range starts {
		last = append(last, slices.Max(hs.dealt))
	}
	b.ReportMetric(float64(median(last).Microseconds())/1000, "p50-ms")
	b.Log(handStartTable(starts))
}

// handStartTable is the medians of each step's parts, in milliseconds.
func handStartTable(starts []handStart) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d hand starts, medians in ms\n%-10s %7s %7s %7s %7s\n", len(starts), "step", "wait", "check", "build", "own")
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	for i, p := range starts[0].parts {
		var w, c, bd, o []time.Duration
		for _, hs := range starts {
			q := hs.parts[i]
			w, c, bd, o = append(w, q.wait), append(c, q.check), append(bd, q.build), append(o, q.ownApp)
		}
		fmt.Fprintf(&sb, "%-10s %7.1f %7.1f %7.1f %7.1f\n", p.name, ms(median(w)), ms(median(c)), ms(median(bd)), ms(median(o)))
	}
	for i, name := range starts[0].after {
		var d []time.Duration
		for _, hs := range starts {
			if i < len(hs.sentAt) {
				d = append(d, hs.sentAt[i])
			}
		}
		fmt.Fprintf(&sb, "%-10s sent at %.1f ms\n", name, ms(median(d)))
	}
	for seat := range starts[0].dealt {
		var d []time.Duration
		for _, hs := range starts {
			d = append(d, hs.dealt[seat])
		}
		fmt.Fprintf(&sb, "seat %d deal complete: %.1f ms\n", seat, ms(median(d)))
	}
	return sb.String()
}
