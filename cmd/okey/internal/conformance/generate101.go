package conformance

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// A 101 case played by scripted seats: honest moves chosen so that the
// match shows the rules the case is for. The generator fails when a
// regenerated match no longer shows one of them.
type rules101Case struct {
	name, ruleset, note string
	seed                uint64
	plans               [][]Play101 // per seat; nil: the b101 bot
	shows               []string    // events101 names the match must show
}

var rules101Cases = []rules101Case{
	{
		name: "honest-101-rules-2", ruleset: "101:rounds=3", seed: 328,
		note: "Okey 101, 2 seats, honest moves chosen by a script: hands 0-2 cancelled (both seats open with " +
			"doubles, after an okey discard), hand 3 not cancellable after 3 cancellations in a row (both open with doubles, " +
			"the bank runs out: an exhaust), hand 4 ended by a give back on the empty bank (both okeys in an opened rack, " +
			"a seat not opened), hand 5 (seat 0 opens with sets and runs, seat 1 with doubles, an okey in a double) with a give back " +
			"and its draw, an okey discard, a discard that could replace the okey in a double (addable) and an exhaust",
		plans: [][]Play101{rulesPlan(0), rulesPlan(1)},
		shows: []string{"h0:cancel", "h0:cancel-after-okey-discard", "h1:cancel", "h2:cancel",
			"h3:exhaust", "h3:all-doubles-played-on", "h3:okey-discard",
			"h4:give-back-empty-bank", "h4:okey-in-hand", "h4:two-okeys-in-hand", "h4:unopened",
			"h5:give-back", "h5:addable-discard-okey-in-double", "h5:addable-discard", "h5:okey-discard",
			"h5:exhaust", "hands=6"},
	},
	{
		name: "honest-101-3", ruleset: "101:rounds=3", seed: 501,
		note:  "Okey 101 with 3 seats (the b101 bot; seat 1 takes a discard and gives it back once a hand)",
		plans: [][]Play101{nil, {{GiveBack: true}}, nil},
		shows: []string{"give-back", "finish", "joker-finish", "exhausted", "okey-in-hand", "hands=3"},
	},
	{
		name: "honest-101-partnerships-4", ruleset: "101:partnerships,rounds=3", seed: 414,
		note:  "Okey 101 with 4 seats and partnerships (the b101 bot; seat 1 gives a discard back once a hand; a false joker turned up as the indicator candidate); scores are each seat's own total (the ranking adds partners)",
		plans: [][]Play101{nil, {{GiveBack: true}}, nil, nil},
		shows: []string{"give-back", "false-joker-candidate", "swap", "finish", "exhaust", "doubles-opener-sum", "unopened", "hands=3"},
	},
}

// rulesPlan is each seat's play in honest-101-rules-2, by hand.
func rulesPlan(seat int) []Play101 {
	doubles := Play101{Doubles: true, GiveBack: true, OkeyDiscard: true}
	last := Play101{Passive: true, OkeyDiscard: true, Addable: true}
	if seat == 1 {
		last = Play101{Doubles: true, GiveBack: true, OkeyDiscard: true, Addable: true}
	}
	return []Play101{doubles, doubles, doubles, doubles, {Passive: true, GiveBackEmpty: true}, last}
}

// add101Rules writes the scripted 101 cases and returns the first one's
// transcript and file (the 101 state-hash vectors come from it).
func (g *gen) add101Rules() (*table.Transcript, string, error) {
	var first *table.Transcript
	var firstFile string
	for _, c := range rules101Cases {
		var ms []table.Mover
		for _, p := range c.plans {
			if p == nil {
				p = []Play101{{}}
			}
			ms = append(ms, newScript101(p...))
		}
		res, _, err := matchMovers(c.ruleset, ms, c.seed, c.seed, "", -1, nil)
		if err != nil {
			return nil, "", err
		}
		t := res.Transcript(-1)
		ev, err := events101(t)
		if err != nil {
			return nil, "", err
		}
		have := map[string]bool{}
		for _, e := range ev {
			have[e] = true
		}
		var missing []string
		for _, e := range c.shows {
			if !have[e] {
				missing = append(missing, e)
			}
		}
		if len(missing) > 0 {
			return nil, "", fmt.Errorf("case %s: the match no longer shows %s (it shows %s)", c.name,
				strings.Join(missing, ", "), strings.Join(ev, ", "))
		}
		if err := g.add(Case{Name: c.name, Status: 0, Note: c.note + "; shows: " + strings.Join(c.shows, ", ")}, t); err != nil {
			return nil, "", err
		}
		if first == nil {
			first, firstFile = t, filepath.Join("transcripts", c.name+".okey")
		}
	}
	return first, firstFile, nil
}

// stateVectors101 names steps of a 101 transcript worth a preimage: the
// state before each named step is the state right after the event.
func stateVectors101(t *table.Transcript) ([]string, []int, error) {
	m, err := table.NewMachine(t.Config, nil)
	if err != nil {
		return nil, nil, err
	}
	var names []string
	var steps []int
	want := map[string]bool{}
	mark := func(name string, k int) {
		if !want[name] && k < len(t.Chain) {
			want[name] = true
			names, steps = append(names, name), append(steps, k)
		}
	}
	for k, raw := range t.Chain {
		env, err := table.DecodeEnvelope(raw)
		if err != nil {
			return nil, nil, err
		}
		var before *engine.Game101
		if mm := m.Match101(); mm != nil && mm.Game() != nil {
			before = mm.Clone().Game()
		}
		if err := m.Apply(env); err != nil {
			return nil, nil, err
		}
		mm := m.Match101()
		if mm == nil {
			continue
		}
		gm := mm.Game()
		if env.Kind == table.KindMove && len(env.Body) > 0 {
			switch engine.Act101(env.Body[0]) {
			case engine.Act101GiveBack:
				if len(gm.Stock()) > 0 {
					mark("101: after a give back", k+1)
				} else {
					mark("101: after a give back on the empty bank (the round ends, exhausted)", k+1)
				}
			case engine.Act101Lay:
				if res, ok := gm.Result(); ok && res.End == engine.EndCancelled {
					mark("101: after the lay that cancels the round (all opened with doubles)", k+1)
				}
			case engine.Act101Discard:
				ps := gm.Penalties()
				if len(ps) > 0 && ps[len(ps)-1].Kind == engine.PenaltyAddable && len(ps) > len(before.Penalties()) {
					if add, _ := before.AddTargets(gm.PublicFace(ps[len(ps)-1].Slot)); len(add) == 0 {
						mark("101: after an addable discard (a tile that could replace an okey on the table)", k+1)
					} else {
						mark("101: after an addable discard (a tile that could be added to a meld)", k+1)
					}
				}
			}
		}
		if res, ok := gm.Result(); ok && res.End != engine.EndCancelled && env.Kind == table.KindOpen {
			for _, p := range res.Penalties {
				if p.Kind == engine.PenaltyJokerInHand {
					mark("101: after the reveal that scores a round with okey-in-hand penalties", k+1)
				}
			}
		}
	}
	return names, steps, nil
}

// vectors101 returns the state-hash vectors of the 101 transcript file.
func (g *gen) vectors101(t *table.Transcript, file string) ([]StateVector, error) {
	names, steps, err := stateVectors101(t)
	if err != nil {
		return nil, err
	}
	if len(names) < 5 {
		return nil, fmt.Errorf("101 state vectors: only %v", names)
	}
	var sv []StateVector
	for i, name := range names {
		pre, err := StatePreimage(filepath.Join(g.dir, file), steps[i])
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(pre)
		if sum != decode(t.Chain[steps[i]]).State {
			return nil, fmt.Errorf("state vector %q: preimage does not hash to the envelope's state", name)
		}
		sv = append(sv, StateVector{Comment: name, Transcript: file, Step: steps[i], Preimage: hex.EncodeToString(pre), Hash: hex.EncodeToString(sum[:])})
	}
	return sv, nil
}

type forged101 struct {
	t    *table.Transcript
	seat int
}

// addBeforeDraw101 makes a file from an honest 101 transcript: at the first
// turn of a seat that has not opened (not the dealer's first turn), its draw
// or take is replaced by an add of a numbered tile of its rack to meld 0,
// with the seat's own share of that tile (public by the round's end), and
// re-signed by that seat. The chain ends with it.
func addBeforeDraw101(t *table.Transcript, keys []ed25519.PrivateKey) (*forged101, error) {
	m, err := table.NewMachine(t.Config, nil)
	if err != nil {
		return nil, err
	}
	at, seat := -1, -1
	var rack []engine.Slot
	for k, raw := range t.Chain {
		env := decode(raw)
		if mm := m.Match101(); mm != nil && at < 0 && env.Kind == table.KindMove && len(env.Body) == 1 &&
			(env.Body[0] == byte(engine.Act101Draw) || env.Body[0] == byte(engine.Act101Take)) {
			g := mm.Game()
			if s, drawn, _ := g.Turn(); s == int(env.Seat) && !drawn && g.Turns() > 0 && g.Opened(s) == engine.NotOpened {
				at, seat, rack = k, s, g.Rack(s)
			}
		}
		if at >= 0 && env.Kind == table.KindAudit {
			// Every slot of the rack at the forged step is public by now
			// (laid, discarded or revealed): pick a numbered non-okey one.
			g := m.Match101().Game()
			for _, sl := range rack {
				f := g.PublicFace(sl)
				share := m.Shares(sl)[seat]
				if f == engine.NoFace || f == engine.FalseJoker || f == g.Okey() || share == nil {
					continue
				}
				body := []byte{byte(engine.Act101Add), 0, 1, byte(sl), byte(f), 1, byte(sl)}
				body = append(body, share...)
				out := clone(t)
				out.Chain = out.Chain[:at+1]
				out.Evidence = nil
				out.Chain[at] = resign(out.Chain[at], keys[seat], t.Config.Hash(), func(e *table.Envelope) { e.Body = body })
				return &forged101{t: out, seat: seat}, nil
			}
			return nil, fmt.Errorf("add-before-draw: no public numbered tile in seat %d's rack", seat)
		}
		if err := m.Apply(env); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("add-before-draw: no unopened seat's draw found")
}
