package tablemodel

import (
	"errors"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// Frame is one position of a replay: the public state after a move (or the
// deal), with every tile's face known from the hand's audit.
type Frame struct {
	Step  int // the envelope applied last
	Hand  int
	Match *engine.Match
	// Match101 is an Okey 101 match's state (Match is nil then).
	Match101 *engine.Match101
	All      *engine.View // every slot's face, from the audit (nil: the hand was not audited)
	Lines    []Line       // what happened at this frame
	End      *HandEnd     // set on the frame that ends a hand
}

// Replay is a transcript made into frames to step through.
type Replay struct {
	Names   []string
	Ruleset string
	Report  *table.Report
	Frames  []Frame
}

// LoadReplay verifies a transcript and replays it into frames: one for each
// hand's deal and one after each move. The audit after every hand reveals
// all its tiles, so every rack is shown with its faces. A transcript that
// does not verify is replayed up to where it stops holding.
func LoadReplay(t *table.Transcript) (*Replay, error) {
	rep := table.Verify(t)
	r := &Replay{Ruleset: t.Config.Ruleset, Report: rep}
	for _, s := range t.Config.Seats {
		r.Names = append(r.Names, s.Name)
	}
	m, err := table.NewMachineFor(t, nil)
	if err != nil {
		return nil, err
	}
	tiles := map[uint32][]int{}
	for _, h := range rep.Hands {
		tiles[h.Hand] = h.Tiles
	}
	var prev *Snapshot
	views := map[uint32]*engine.View{}
	for i, raw := range t.Chain {
		env, err := table.DecodeEnvelope(raw)
		if err != nil {
			break
		}
		if err := m.Apply(env); err != nil {
			break
		}
		cur := TakeSnapshot(m, nil, -1)
		if Game(cur) == "" {
			continue
		}
		lines, end := Events(prev, cur)
		prev = cur
		if len(lines) == 0 && end == nil {
			continue
		}
		// A hand's frames end at its last move: the audit that follows starts
		// the next hand.
		hand := HandNumber(cur)
		if end != nil {
			hand = end.Hand
		}
		v, ok := views[hand]
		if !ok {
			if ts, audited := tiles[hand]; audited {
				v = engine.NewView(-1)
				for s, j := range ts {
					v.Learn(engine.Slot(s), engine.Tile(j).Face())
				}
			}
			views[hand] = v
		}
		r.Frames = append(r.Frames, Frame{Step: i, Hand: int(hand), Match: cur.Match, Match101: cur.Match101, All: v, Lines: lines, End: end})
	}
	if len(r.Frames) == 0 {
		return nil, errors.New("ui: the transcript has no hand to replay")
	}
	return r, nil
}
