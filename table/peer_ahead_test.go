package table

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestBuildAhead: every lock and re-key but seat 0's lock is built beside
// the check of the message before it (seat 0's re-key on seat 3's lock,
// each other seat's lock and re-key on the seat before's), and the hand's
// start is byte for byte the one built after the checks.
func TestBuildAhead(t *testing.T) {
	const n = 4
	defer func(v bool) { buildAhead = v }(buildAhead)
	chains := map[bool][][]byte{}
	for _, on := range []bool{false, true} {
		buildAhead = on
		_, res := playHandStart(t, n, 0, LocalOptions{Seed: 91, Rands: seededRands(n, 91)})
		var used []int
		for _, p := range res.Peers {
			used = append(used, p.aheadUsed)
		}
		want := []int{0, 0, 0, 0}
		if on {
			want = []int{1, 2, 2, 2}
		}
		if !slices.Equal(used, want) {
			t.Errorf("ahead=%v: bodies built ahead per seat %v, want %v", on, used, want)
		}
		// The chain up to the last re-key (the open and deal rounds may
		// be cut short where the hand start stopped the table).
		chain := res.Peers[0].Chain()
		k := 0
		for k < len(chain) {
			env, err := DecodeEnvelope(chain[k])
			if err != nil {
				t.Fatal(err)
			}
			k++
			if env.Kind == KindRekey && int(env.Seat) == n-1 {
				break
			}
		}
		chains[on] = chain[:k]
	}
	if len(chains[true]) != 3*n || !slices.EqualFunc(chains[false], chains[true], func(a, b []byte) bool { return string(a) == string(b) }) {
		t.Fatalf("the hello, shuffles and re-keys built ahead (%d messages) differ from those built after the checks (%d)", len(chains[true]), len(chains[false]))
	}
}

// sentLog records the kinds of the envelopes each seat signed and broadcast.
type sentLog struct {
	mu   sync.Mutex
	sent map[int][]Kind
}

type logTransport struct {
	Transport
	seat int
	log  *sentLog
}

func (l *logTransport) Broadcast(ctx context.Context, data []byte) error {
	// Its own envelopes only (the evidence it passes on is the cheater's).
	if env, err := DecodeEnvelope(data); err == nil && int(env.Seat) == l.seat {
		l.log.mu.Lock()
		l.log.sent[l.seat] = append(l.log.sent[l.seat], env.Kind)
		l.log.mu.Unlock()
	}
	return l.Transport.Broadcast(ctx, data)
}

// TestBuildAheadNothingSentOnBadProof: seat 1 sends a lock whose shuffle
// proof fails (learn-tiles) or a re-key whose proof fails (bad-proof).
// Seat 2 builds its own beside the check, and never sends it: the check
// fails first, and seat 1 is named.
func TestBuildAheadNothingSentOnBadProof(t *testing.T) {
	const n = 4
	for _, c := range []struct {
		cheat Cheat
		kind  Kind
	}{{CheatLearnTiles, KindShuffle}, {CheatBadProof, KindRekey}} {
		log := &sentLog{sent: map[int][]Kind{}}
		res := runOpts(t, LocalOptions{Ruleset: "classic", Movers: movers(n, 92), Seed: 92, Cheat: c.cheat, Cheater: 1,
			Withhold: time.Minute,
			wrap:     func(seat int, t Transport) Transport { return &logTransport{Transport: t, seat: seat, log: log} }})
		for i, r := range res.Results {
			if i == 1 {
				continue
			}
			if r.Violation == nil || r.Violation.Seat != 1 {
				t.Fatalf("%s: seat %d: violation %v, want seat 1 named", c.cheat, i, r.Violation)
			}
		}
		if a := res.Peers[2].ahead; a == nil || a.kind != c.kind {
			t.Errorf("%s: seat 2 never built its %v ahead on seat 1's", c.cheat, c.kind)
		}
		log.mu.Lock()
		if slices.Contains(log.sent[2], c.kind) {
			t.Errorf("%s: seat 2 sent its %v after seat 1's failing one: %v", c.cheat, c.kind, log.sent[2])
		}
		log.mu.Unlock()
	}
}
