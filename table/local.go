package table

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/okey-game/okey/engine"
)

// LocalOptions describes a table played in one process over a MemNet: every
// seat a separate peer with its own keys (okey sim, tests).
type LocalOptions struct {
	Ruleset string
	Movers  []Mover // one per seat
	Faults  Faults
	// Seed makes keys, table id and faults reproducible; 0 draws them from
	// crypto/rand. Seats' nonces and tile shuffles use crypto/rand (or
	// Rands): two matches with one seed are two matches of the same table.
	Seed uint64
	// KeySeed, when not 0, makes the seats' keys (and ids) from this seed
	// instead of Seed: matches with one KeySeed and different Seeds are
	// different tables of the same players (okey sim --keys).
	KeySeed uint64
	Cheat   Cheat
	Cheater int
	// Replay: envelopes of an earlier match for a replay cheater to send.
	Replay [][]byte
	Stall  time.Duration // ask-again interval (PeerConfig.Stall)
	// Withhold is the silence after which a seat is blamed for withholding
	// (PeerConfig.Withhold).
	Withhold time.Duration
	Log      *slog.Logger
	// Stores, when set, gives each seat its store (for restarts); default memory.
	Stores []Store

	// Rands, when set, is each seat's source of seeds and nonces (and a
	// cheater's junk), so that a whole match replays exactly: tests and the
	// conformance suite's generator only; play uses crypto/rand.
	Rands []io.Reader

	// Tests only: the junk-private cheater's slots, a per-seat step
	// callback, the shuffle proof check switched off, and a wrapper of each
	// seat's transport.
	noLockProofs bool
	junkSlots    []int
	onStep       func(seat int, m *Machine, v *engine.View)
	wrap         func(seat int, t Transport) Transport
}

// LocalResult is what a local table produced.
type LocalResult struct {
	Config  Config
	Results []Result
	Peers   []*Peer
	Elapsed time.Duration
}

// LocalConfig builds a table config with fresh (or seeded) keys and seat
// nonces: with seed 0 every call makes a config of its own (crypto/rand).
func LocalConfig(ruleset string, n int, seed uint64) (Config, []ed25519.PrivateKey, error) {
	cfg := Config{Ruleset: ruleset}
	var keys []ed25519.PrivateKey
	for i := 0; i < n; i++ {
		var s [32]byte
		if seed == 0 {
			rand.Read(s[:])
		} else {
			s = sha256.Sum256(binary.BigEndian.AppendUint64([]byte(fmt.Sprintf("okey-sim seat %d ", i)), seed))
		}
		k := ed25519.NewKeyFromSeed(s[:])
		keys = append(keys, k)
		seat := Seat{ID: LocalPeerID(k.Public().(ed25519.PublicKey)), Name: fmt.Sprintf("seat%d", i),
			Key: k.Public().(ed25519.PublicKey)}
		if seed == 0 {
			rand.Read(seat.Nonce[:])
		} else {
			seat.Nonce = sha256.Sum256(binary.BigEndian.AppendUint64([]byte(fmt.Sprintf("okey-sim nonce %d ", i)), seed))
		}
		cfg.Seats = append(cfg.Seats, seat)
	}
	if seed == 0 {
		rand.Read(cfg.ID[:])
	} else {
		h := sha256.Sum256(binary.BigEndian.AppendUint64([]byte("okey-sim table "), seed))
		copy(cfg.ID[:], h[:])
	}
	return cfg, keys, cfg.Validate()
}

// LocalPeerID is the peer id of a seat of a match in one process: "sim-"
// and the first 6 bytes of its key's SHA-256, in hex.
func LocalPeerID(key ed25519.PublicKey) PeerID {
	id := sha256.Sum256(key)
	return PeerID(fmt.Sprintf("sim-%x", id[:6]))
}

// RunLocal plays one match. It returns when every honest peer has finished
// (or named a cheater); a withholding cheater is then stopped.
func RunLocal(ctx context.Context, o LocalOptions) (*LocalResult, error) {
	n := len(o.Movers)
	cfg, keys, err := LocalConfig(o.Ruleset, n, o.Seed)
	if err != nil {
		return nil, err
	}
	if o.KeySeed != 0 {
		same, sameKeys, err := LocalConfig(o.Ruleset, n, o.KeySeed)
		if err != nil {
			return nil, err
		}
		cfg.Seats, keys = same.Seats, sameKeys
	}
	// Every match draws its seats' nonces afresh, as real seats do (a seed
	// fixes the table id and the keys, not the match): from each seat's
	// source when Rands is set, else from crypto/rand.
	for i := range cfg.Seats {
		r := io.Reader(rand.Reader)
		if o.Rands != nil {
			r = o.Rands[i]
		}
		if _, err := io.ReadFull(r, cfg.Seats[i].Nonce[:]); err != nil {
			return nil, err
		}
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	net := NewMemNet(o.Faults, o.Seed)
	peers := make([]*Peer, n)
	for i := 0; i < n; i++ {
		pc := PeerConfig{Table: cfg, Seat: i, Key: keys[i], Transport: net.Join(cfg.Seats[i].ID), Mover: o.Movers[i],
			Stall: o.Stall, Withhold: o.Withhold, Log: o.Log}
		if o.wrap != nil {
			pc.Transport = o.wrap(i, pc.Transport)
		}
		if o.Stores != nil {
			pc.Store = o.Stores[i]
		}
		if o.Rands != nil {
			pc.Rand = o.Rands[i]
		}
		pc.junkSlots, pc.noLockProofs = o.junkSlots, o.noLockProofs
		if o.onStep != nil {
			seat := i
			pc.OnStep = func(m *Machine, v *engine.View) { o.onStep(seat, m, v) }
		}
		if o.Cheat != "" && i == o.Cheater {
			pc.Cheat, pc.Replay = o.Cheat, o.Replay
		}
		if peers[i], err = NewPeer(pc); err != nil {
			return nil, err
		}
	}
	start := time.Now()
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := &LocalResult{Config: cfg, Results: make([]Result, n), Peers: peers}
	errs := make([]error, n)
	var honest, all sync.WaitGroup
	for i := range peers {
		all.Add(1)
		// A replay cheater plays the match through once its replay is
		// sent: the match is over when it has finished too (cancelled as
		// the honest seats finish, it could miss the last message).
		isCheater := o.Cheat != "" && o.Cheat != CheatReplay && i == o.Cheater
		if !isCheater {
			honest.Add(1)
		}
		go func() {
			defer all.Done()
			out.Results[i], errs[i] = peers[i].Run(cctx)
			if !isCheater {
				honest.Done()
			}
		}()
	}
	honest.Wait()
	out.Elapsed = time.Since(start)
	cancel()
	all.Wait()
	for i, err := range errs {
		if err != nil && !(o.Cheat != "" && i == o.Cheater) {
			return out, fmt.Errorf("table: seat %d: %w", i, err)
		}
	}
	return out, nil
}

// Transcript returns the transcript of the first honest peer: its chain and
// the evidence it kept.
func (r *LocalResult) Transcript(cheater int) *Transcript {
	for i, p := range r.Peers {
		if i == cheater {
			continue
		}
		t := &Transcript{Config: r.Config, Chain: p.Chain()}
		if v := r.Results[i].Violation; v != nil {
			for _, e := range v.Evidence {
				if !inChain(t.Chain, e) {
					t.Evidence = append(t.Evidence, e)
				}
			}
		}
		return t
	}
	return nil
}

func inChain(chain [][]byte, e []byte) bool {
	for _, c := range chain {
		if string(c) == string(e) {
			return true
		}
	}
	return false
}
