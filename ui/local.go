package ui

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// LocalOptions describes a match of the player against bots in this
// process: every seat a full peer with its own keys, over an in-memory
// network.
type LocalOptions struct {
	Ruleset string        // canonical ruleset text
	Name    string        // the player's name (seat 0)
	Bots    []table.Mover // one per other seat
	BotName []string      // their names
	// Data is the directory the player's transcript and secrets are saved
	// in (a directory per match under Data/matches); "" keeps them in memory.
	Data string
	// Pace is how long a bot waits before it moves, so that a person can
	// follow the table (0: no wait).
	Pace time.Duration
	Log  *slog.Logger
}

// LocalOutcome is how a local match ended.
type LocalOutcome struct {
	Config     table.Config
	Transcript string // the saved transcript ("" in memory)
	Report     *table.Report
	Err        error // the player's peer failed, or the player left
}

type paced struct {
	m table.Mover
	d time.Duration
}

func (p paced) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	time.Sleep(p.d)
	return p.m.Move(h, v)
}

// PlayLocal plays a match for g's player (seat 0) against bots, then
// verifies the transcript and shows the result on g. It returns when the
// match ends or g's player leaves.
func PlayLocal(ctx context.Context, g *Game, o LocalOptions) (*LocalOutcome, error) {
	n := len(o.Bots) + 1
	if len(o.BotName) != len(o.Bots) {
		return nil, errors.New("ui: one name per bot")
	}
	cfg, keys, err := table.LocalConfig(o.Ruleset, n, 0)
	if err != nil {
		return nil, err
	}
	cfg.Seats[0].Name = o.Name
	for i, nm := range o.BotName {
		cfg.Seats[i+1].Name = nm
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	out := &LocalOutcome{Config: cfg}
	var store table.Store = table.NewMemStore(cfg)
	var dir *table.DirStore
	if o.Data != "" {
		d := filepath.Join(o.Data, "matches", time.Now().Format("20060102-150405")+"-"+hex.EncodeToString(cfg.ID[:4]))
		if dir, err = table.OpenDirStore(d, cfg); err != nil {
			return nil, err
		}
		store = dir
		out.Transcript = dir.TranscriptPath()
	}
	net := table.NewMemNet(table.Faults{}, 0)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-g.Done():
			cancel()
		case <-ctx.Done():
		}
	}()
	peers := make([]*table.Peer, n)
	for i := 0; i < n; i++ {
		pc := table.PeerConfig{Table: cfg, Seat: i, Key: keys[i], Transport: net.Join(cfg.Seats[i].ID),
			// A person may think for long: nobody is blamed for a slow move.
			Withhold: 7 * 24 * time.Hour, Log: log.With("seat", i)}
		if i == 0 {
			pc.Mover, pc.OnStep, pc.Store = g, g.OnStep, store
		} else {
			pc.Mover = o.Bots[i-1]
			if o.Pace > 0 {
				pc.Mover = paced{o.Bots[i-1], o.Pace}
			}
		}
		if peers[i], err = table.NewPeer(pc); err != nil {
			return nil, err
		}
	}
	results := make([]table.Result, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range peers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = peers[i].Run(ctx)
			if i == 0 {
				// The player's peer is done: stop the bots too.
				cancel()
			}
		}()
	}
	wg.Wait()
	if dir != nil {
		dir.Close()
	}
	out.Err = errs[0]
	if out.Err == nil && results[0].Violation != nil {
		out.Err = results[0].Violation
	}
	if g.ctx.Err() != nil {
		out.Err = ErrQuit
		return out, nil
	}
	end := &MatchEnd{Err: out.Err, Transcript: out.Transcript}
	if m := results[0].Machine; m != nil && m.Match() != nil {
		end.Ranking = m.Match().Ranking()
		end.Scores = m.Match().Scores()
	}
	g.Say("checking the transcript...")
	t, err := store.Load()
	switch {
	case err != nil:
		end.Verdict = "the transcript could not be read: " + err.Error()
	case t == nil:
		end.Verdict = "no transcript"
	default:
		rep := table.Verify(t)
		out.Report = rep
		end.Verified = rep.Honest
		end.Verdict = Verdict(rep)
	}
	g.Finish(end)
	return out, nil
}

// Verdict is a one-line summary of a transcript's verification.
func Verdict(r *table.Report) string {
	switch {
	case r.Honest:
		return fmt.Sprintf("verified: honest (%d messages, every proof and audit checked, %d hands)", r.Steps, len(r.Hands))
	case r.Violation != nil:
		name := fmt.Sprintf("seat %d", r.Violation.Seat)
		if r.Violation.Seat >= 0 && r.Violation.Seat < len(r.Seats) {
			name = r.Seats[r.Violation.Seat]
		}
		return fmt.Sprintf("CHEATING: %s broke %s at message %d", name, r.Violation.Rule, r.Violation.Step)
	case r.Invalid != nil:
		return "the transcript does not hold: " + r.Invalid.Error()
	}
	return "not verified"
}
