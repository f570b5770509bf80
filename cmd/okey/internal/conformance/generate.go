package conformance

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/crypto/commit"
	"github.com/okey-game/okey/crypto/deck"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

type gen struct {
	dir   string
	w     io.Writer
	suite Suite
}

func intp(i int) *int { return &i }

// seeded gives each seat a deterministic source of seeds and nonces.
func seeded(n int, seed uint64) []io.Reader {
	out := make([]io.Reader, n)
	for i := range out {
		var k [32]byte
		copy(k[:], fmt.Sprintf("okey conformance %d %d", seed, i))
		out[i] = rand.NewChaCha8(k)
	}
	return out
}

// match plays one match deterministically.
func match(ruleset string, n int, seed uint64, cheat table.Cheat, cheater int) (*table.LocalResult, []ed25519.PrivateKey, error) {
	return matchReplay(ruleset, n, seed, seed, cheat, cheater, nil)
}

// matchReplay plays a match of the table of seed, with the seats'
// randomness from randSeed, and a replay cheater's envelopes of an earlier
// match.
func matchReplay(ruleset string, n int, seed, randSeed uint64, cheat table.Cheat, cheater int, replay [][]byte) (*table.LocalResult, []ed25519.PrivateKey, error) {
	is101 := strings.HasPrefix(ruleset, engine.Preset101)
	var ms []table.Mover
	for i := 0; i < n; i++ {
		if is101 {
			ms = append(ms, bot.NewB101())
			continue
		}
		s, err := bot.New("greedy", seed*8+uint64(i))
		if err != nil {
			return nil, nil, err
		}
		ms = append(ms, s)
	}
	return matchMovers(ruleset, ms, seed, randSeed, cheat, cheater, replay)
}

// matchMovers plays a match of the table of seed with the given movers.
func matchMovers(ruleset string, ms []table.Mover, seed, randSeed uint64, cheat table.Cheat, cheater int, replay [][]byte) (*table.LocalResult, []ed25519.PrivateKey, error) {
	n := len(ms)
	withhold := 10 * time.Minute
	if cheat == table.CheatWithhold {
		withhold = 3 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	res, err := table.RunLocal(ctx, table.LocalOptions{Ruleset: ruleset, Movers: ms, Seed: seed, Rands: seeded(n, randSeed),
		Cheat: cheat, Cheater: cheater, Stall: 300 * time.Millisecond, Withhold: withhold, Replay: replay})
	if err != nil {
		return nil, nil, err
	}
	_, keys, err := table.LocalConfig(ruleset, n, seed)
	return res, keys, err
}

// add writes a transcript and its expected verdict, after checking that
// okey's verifier agrees.
func (g *gen) add(c Case, t *table.Transcript) error {
	var buf bytes.Buffer
	if err := table.WriteTranscript(&buf, t); err != nil {
		return err
	}
	return g.addBytes(c, buf.Bytes())
}

func (g *gen) addBytes(c Case, b []byte) error {
	c.File = filepath.Join("transcripts", c.Name+".okey")
	if err := os.WriteFile(filepath.Join(g.dir, c.File), b, 0o644); err != nil {
		return err
	}
	got := Got(g.dir, c)
	if c.Status == int(table.StatusHonest) && c.Scores == nil {
		c.Scores = got.Scores // scores: the engine's, checked by the rules tests
	}
	if !Agrees(c, got) {
		return fmt.Errorf("case %s: expected %s, okey says %s %s", c.Name, Describe(c), Describe(got), got.Note)
	}
	g.suite.Cases = append(g.suite.Cases, c)
	fmt.Fprintf(g.w, "%-32s %s\n", c.Name, Describe(c))
	return nil
}

func clone(t *table.Transcript) *table.Transcript {
	c := &table.Transcript{Config: t.Config}
	for _, e := range t.Chain {
		c.Chain = append(c.Chain, append([]byte(nil), e...))
	}
	for _, e := range t.Evidence {
		c.Evidence = append(c.Evidence, append([]byte(nil), e...))
	}
	return c
}

func resign(raw []byte, key ed25519.PrivateKey, cfg [32]byte, f func(*table.Envelope)) []byte {
	e, err := table.DecodeEnvelope(raw)
	if err != nil {
		panic(err)
	}
	f(e)
	if err := e.Seal(key, cfg); err != nil {
		panic(err)
	}
	return e.Raw
}

func decode(raw []byte) *table.Envelope {
	e, err := table.DecodeEnvelope(raw)
	if err != nil {
		panic(err)
	}
	return e
}

// nextSeat is the seat that must send step k of t's chain.
func nextSeat(t *table.Transcript, k int) int {
	return int(decode(t.Chain[k]).Seat)
}

var cheatRule = map[table.Cheat]table.Rule{
	table.CheatJunkShuffle:      table.RuleBadShuffleProof,
	table.CheatLearnTiles:       table.RuleBadShuffleProof,
	table.CheatDuplicateShuffle: table.RuleBadShuffle,
	table.CheatBadKey:           table.RuleBadKeyShare,
	table.CheatBadProof:         table.RuleBadProof,
	table.CheatEquivocate:       table.RuleEquivocation,
	table.CheatOutOfTurn:        table.RuleOutOfTurn,
	table.CheatFalseWin:         table.RuleFalseWin,
	table.CheatPhantomDiscard:   table.RulePhantomTile,
	table.CheatBadDice:          table.RuleBadDice,
	table.CheatJunkPrivate:      table.RuleBadShuffleProof,
	table.CheatSplitView:        table.RuleEquivocation,
}

// Generate writes the suite into dir (cases.json, the vector files and
// transcripts/), printing one line per case to w. Every expected verdict is
// stated from how the case was made; it fails if okey's own verifier
// disagrees with one.
func Generate(dir string, w io.Writer) error {
	if err := os.RemoveAll(filepath.Join(dir, "transcripts")); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "transcripts"), 0o755); err != nil {
		return err
	}
	g := &gen{dir: dir, w: w, suite: Suite{Version: Version}}

	// Honest matches of every preset, 2 and 3 seats, and one of 4.
	honest := []struct {
		ruleset string
		n       int
	}{
		{"classic:points=2", 2}, {"classic:points=2", 3},
		{"turkish-rummy:rounds=1", 2}, {"turkish-rummy:rounds=1", 3}, {"turkish-rummy:rounds=1", 4},
		{"german:rounds=1", 2}, {"german:rounds=1", 3},
	}
	var base *table.Transcript // the 2-seat turkish-rummy match: the tampered cases start from it
	var baseKeys []ed25519.PrivateKey
	for i, h := range honest {
		res, keys, err := match(h.ruleset, h.n, uint64(100+i), "", -1)
		if err != nil {
			return err
		}
		t := res.Transcript(-1)
		name := fmt.Sprintf("honest-%s-%d", engineName(h.ruleset), h.n)
		if err := g.add(Case{Name: name, Status: 0, Note: "an honest match of " + h.ruleset + " with " + fmt.Sprint(h.n) + " seats"}, t); err != nil {
			return err
		}
		if h.ruleset == "turkish-rummy:rounds=1" && h.n == 2 {
			base, baseKeys = t, keys
		}
	}

	// Slots opened to everyone before their open or draw-shares round: a
	// false joker selected again by die 2 (every seat's open message is
	// empty), and draws of public slots (indicator-last's indicator and
	// turkish-rummy's order-draw slots), whose draw-shares rounds carry the
	// public shares again. Hand 0 is played passively (no win: the stock
	// runs out), the later hands by the greedy bot.
	for _, c := range []struct {
		name, ruleset string
		n             int
		seed          uint64
		shows         []string
		note          string
	}{
		{"honest-classic-reopen-3", "classic:indicator-last,points=1", 3, 780,
			[]string{"reopened", "empty-open", "draw-public", "draw-indicator", "stalemate"},
			"classic:indicator-last with 3 seats: in hand 0 die 2 selects a false joker twice, so its slot is opened again " +
				"with every seat's open message empty (5.3); the seats draw the stock out, the indicator last, each draw-shares " +
				"round for it carrying the shares already public, and the hand ends in a stalemate; then the greedy bot"},
		{"honest-turkish-rummy-stalemate-2", "turkish-rummy:rounds=1", 2, 781,
			[]string{"draw-public", "draw-order-slot", "stalemate"},
			"turkish-rummy:rounds=1 with 2 seats drawing the stock out: the order-draw slots, public and at the bottom of the " +
				"stock, are drawn with draw-shares rounds carrying the shares already public (5.3); a stalemate"},
	} {
		var ms []table.Mover
		for i := 0; i < c.n; i++ {
			s, err := bot.New("greedy", c.seed*8+uint64(i))
			if err != nil {
				return err
			}
			ms = append(ms, newPassive(s))
		}
		res, _, err := matchMovers(c.ruleset, ms, c.seed, c.seed, "", -1, nil)
		if err != nil {
			return err
		}
		t := res.Transcript(-1)
		ev, err := publicEvents(t)
		if err != nil {
			return err
		}
		for _, e := range c.shows {
			if !slices.Contains(ev, e) {
				return fmt.Errorf("case %s: the match no longer shows %s (it shows %v)", c.name, e, ev)
			}
		}
		if err := g.add(Case{Name: c.name, Status: 0, Note: c.note + "; shows: " + strings.Join(c.shows, ", ")}, t); err != nil {
			return err
		}
	}

	// Okey 101: an honest match and one per cheat of 101, 2 seats.
	{
		res, keys, err := match("101:rounds=3", 2, 150, "", -1)
		if err != nil {
			return err
		}
		t := res.Transcript(-1)
		if err := g.add(Case{Name: "honest-101-2", Status: 0, Note: "an honest match of Okey 101 (3 rounds) with 2 seats"}, t); err != nil {
			return err
		}
		c, err := addBeforeDraw101(t, keys)
		if err != nil {
			return err
		}
		if err := g.add(Case{Name: "cheat-101-add-before-draw", Status: 1, Seat: intp(c.seat), Rule: table.RuleRules,
			Note: fmt.Sprintf("Okey 101: seat %d, not opened, replaces its draw by an add of a tile of its rack (with its valid share) and re-signs it: "+
				"the draw check comes before add-before-open (5.8), so the rule is rules", c.seat)}, c.t); err != nil {
			return err
		}
	}
	rule101 := map[table.Cheat]table.Rule{table.CheatFalseOpening: table.RuleFalseOpening, table.CheatAddBeforeOpen: table.RuleAddBeforeOpen,
		table.CheatKeptDiscard: table.RuleKeptDiscard, table.CheatForgedScore: table.RuleStateDivergence}
	for i, c := range table.Cheats101 {
		res, _, err := match("101:rounds=3", 2, uint64(160+i), c, 1)
		if err != nil {
			return err
		}
		t := res.Transcript(1)
		if v := table.Verify(t).Violation; v != nil && int(v.Step) < len(t.Chain) {
			t.Chain, t.Evidence = t.Chain[:v.Step], v.Evidence
		}
		if err := g.add(Case{Name: "cheat-101-" + string(c), Status: 1, Seat: intp(1), Rule: rule101[c],
			Note: fmt.Sprintf("Okey 101: seat 1 cheats (%s)", c)}, t); err != nil {
			return err
		}
	}

	// Okey 101: the rules the honest match does not reach, by scripted seats.
	rules101, rules101File, err := g.add101Rules()
	if err != nil {
		return err
	}

	// One match per cheat, 3 seats: the cheater named by rule.
	for i, c := range table.Cheats {
		cheater := 1
		switch c {
		case table.CheatJunkPrivate:
			cheater = 2 // the last locker: its junk lands where it put it
		case table.CheatSplitView:
			cheater = 0
		}
		var replay [][]byte
		if c == table.CheatReplay {
			// An earlier match of the same table (same id and roster, other
			// nonces): seat 0's messages, which seat 1 delivers again.
			earlier, _, err := matchReplay("turkish-rummy:rounds=1", 3, uint64(200+i), 9999, "", -1, nil)
			if err != nil {
				return err
			}
			for _, raw := range earlier.Peers[0].Chain() {
				if decode(raw).Seat == 0 {
					replay = append(replay, raw)
				}
			}
		}
		res, _, err := matchReplay("turkish-rummy:rounds=1", 3, uint64(200+i), uint64(200+i), c, cheater, replay)
		if err != nil {
			return err
		}
		t := res.Transcript(cheater)
		// When a cheat is seen can depend on scheduling (a second message
		// may arrive before or after its step is applied): keep the chain
		// up to the step of the violation, so that the file is the same on
		// every run. The evidence proves it either way (section 6).
		if v := table.Verify(t).Violation; v != nil && int(v.Step) < len(t.Chain) {
			t.Chain, t.Evidence = t.Chain[:v.Step], v.Evidence
		}
		cs := Case{Name: "cheat-" + string(c), Status: 1, Seat: intp(cheater), Rule: cheatRule[c],
			Note: fmt.Sprintf("seat %d cheats (%s); the transcript of an honest seat names it", cheater, c)}
		if c == table.CheatReplay {
			cs = Case{Name: "cheat-replay", Status: 0,
				Note: "seat 1 delivers seat 0's messages of an earlier match of the same table: they verify in no other match; honest"}
		}
		if c == table.CheatWithhold {
			cs = Case{Name: "cheat-withhold", Status: 3, Next: intp(cheater),
				Note: fmt.Sprintf("seat %d stops sending; silence is not proof: unfinished, waiting for seat %d", cheater, cheater)}
		}
		if err := g.add(cs, t); err != nil {
			return err
		}
	}

	// Hand-made files from the 2-seat honest match.
	h := base.Config.Hash()
	n := len(base.Chain)
	mid := n / 2
	{
		t := clone(base)
		t.Chain = t.Chain[:mid]
		if err := g.add(Case{Name: "cut-chain", Status: 3, Next: intp(nextSeat(base, mid)),
			Note: "the chain stops in the middle: unfinished, with the seat that was to speak"}, t); err != nil {
			return err
		}
	}
	{
		var buf bytes.Buffer
		table.WriteTranscript(&buf, base)
		b := buf.Bytes()[:buf.Len()-100]
		if err := g.addBytes(Case{Name: "torn-last-record", Status: 3, Next: intp(nextSeat(base, n-1)),
			Note: "the file ends inside its last record: it is dropped; unfinished"}, b); err != nil {
			return err
		}
	}
	{
		t := clone(base)
		t.Chain[mid][len(t.Chain[mid])-1] ^= 1
		if err := g.add(Case{Name: "bad-signature", Status: 2,
			Note: "one signature byte flipped: invalid, no one named"}, t); err != nil {
			return err
		}
	}
	{
		t := clone(base)
		seat := decode(t.Chain[mid]).Seat
		t.Chain[mid] = resign(t.Chain[mid], baseKeys[seat], h, func(e *table.Envelope) { e.Prev[0] ^= 1 })
		if err := g.add(Case{Name: "relinked", Status: 2,
			Note: "a seat re-signs its own record with another previous hash: it does not link; invalid, no one named"}, t); err != nil {
			return err
		}
	}
	// A seat re-signs its own draw as a take: the next record does not link.
	drawAt, discardAt := -1, -1
	for k := 10; k < n-1; k++ {
		e := decode(base.Chain[k])
		if e.Kind == table.KindMove && e.Body[0] == byte(engine.ActDraw) && drawAt < 0 {
			drawAt = k
		}
		if e.Kind == table.KindMove && e.Body[0] == byte(engine.ActDiscard) && discardAt < 0 {
			discardAt = k
		}
	}
	{
		t := clone(base)
		seat := decode(t.Chain[drawAt]).Seat
		t.Chain[drawAt] = resign(t.Chain[drawAt], baseKeys[seat], h, func(e *table.Envelope) { e.Body[0] = byte(engine.ActTake) })
		if err := g.add(Case{Name: "resigned-own-move", Status: 2,
			Note: "a seat replaces its own draw by a take and re-signs it: the following record does not link; invalid, the next speaker is not named"}, t); err != nil {
			return err
		}
	}
	{
		t := clone(base)
		e := decode(t.Chain[discardAt])
		t.Chain[discardAt] = resign(t.Chain[discardAt], baseKeys[e.Seat], h, func(e *table.Envelope) { e.Body[1] ^= 0x40 })
		if err := g.add(Case{Name: "resigned-phantom-discard", Status: 1, Seat: intp(int(e.Seat)), Rule: table.RulePhantomTile,
			Note: "a seat re-signs its own discard naming a slot it does not hold: its own signed message breaks a rule"}, t); err != nil {
			return err
		}
	}
	{
		t := clone(base)
		t.Evidence = append(t.Evidence, t.Chain[5])
		if err := g.add(Case{Name: "evidence-copy", Status: 0,
			Note: "evidence that is an exact copy of a chain record proves nothing"}, t); err != nil {
			return err
		}
	}
	{
		t := clone(base)
		e := decode(t.Chain[5])
		t.Evidence = append(t.Evidence, resign(t.Chain[5], baseKeys[e.Seat], h, func(e *table.Envelope) { e.Body[len(e.Body)-1] ^= 1 }))
		if err := g.add(Case{Name: "evidence-equivocation-after-end", Status: 1, Seat: intp(int(e.Seat)), Rule: table.RuleEquivocation,
			Note: "a finished chain, and a second message signed by the same seat for a step of it: equivocation"}, t); err != nil {
			return err
		}
	}
	{
		t := clone(base)
		t.Chain = t.Chain[:mid]
		t.Evidence = append(t.Evidence, base.Chain[mid])
		if err := g.add(Case{Name: "evidence-valid-next", Status: 3, Next: intp(nextSeat(base, mid)),
			Note: "the valid next message given as evidence proves nothing and is not applied: unfinished"}, t); err != nil {
			return err
		}
	}
	{
		t := clone(base)
		t.Chain = t.Chain[:discardAt]
		e := decode(base.Chain[discardAt])
		t.Evidence = append(t.Evidence, resign(base.Chain[discardAt], baseKeys[e.Seat], h, func(e *table.Envelope) { e.Body[1] ^= 0x40 }))
		if err := g.add(Case{Name: "evidence-bad-next", Status: 1, Seat: intp(int(e.Seat)), Rule: table.RulePhantomTile,
			Note: "the next message, breaking a rule, kept as evidence: its signer is named"}, t); err != nil {
			return err
		}
	}
	{
		t := clone(base)
		t.Chain = t.Chain[:mid]
		k := mid + 4
		e := decode(base.Chain[k])
		a := resign(base.Chain[k], baseKeys[e.Seat], h, func(e *table.Envelope) { e.State[0] ^= 1 })
		b := resign(base.Chain[k], baseKeys[e.Seat], h, func(e *table.Envelope) { e.State[1] ^= 1 })
		t.Evidence = append(t.Evidence, a, b)
		if err := g.add(Case{Name: "evidence-ahead-pair", Status: 1, Seat: intp(int(e.Seat)), Rule: table.RuleEquivocation,
			Note: "two different messages signed by one seat for one step beyond the chain's end"}, t); err != nil {
			return err
		}
	}
	{
		t := clone(base)
		// Seat 1 signs a message for a step where seat 0 spoke, on another
		// previous message: a fork whose other side is not in the file.
		k := 6
		own := decode(base.Chain[k])
		other := 1 - int(own.Seat)
		fork := resign(base.Chain[k], baseKeys[other], h, func(e *table.Envelope) { e.Seat = uint8(other); e.Prev[0] ^= 1 })
		t.Evidence = append(t.Evidence, fork)
		if err := g.add(Case{Name: "evidence-fork-other-seat", Status: 0,
			Note: "another seat's message for a past step on another previous message proves nothing (no one named)"}, t); err != nil {
			return err
		}
		t = clone(base)
		oot := resign(base.Chain[k], baseKeys[other], h, func(e *table.Envelope) { e.Seat = uint8(other) })
		t.Evidence = append(t.Evidence, oot)
		if err := g.add(Case{Name: "evidence-out-of-turn", Status: 1, Seat: intp(other), Rule: table.RuleOutOfTurn,
			Note: "another seat's message for a past step on the same previous message: out-of-turn"}, t); err != nil {
			return err
		}
		// The same seat signs a second message for that step, on a third
		// previous message: two forks of one signer for one step.
		t = clone(base)
		fork2 := resign(base.Chain[k], baseKeys[other], h, func(e *table.Envelope) { e.Seat = uint8(other); e.Prev[1] ^= 1 })
		t.Evidence = append(t.Evidence, fork, fork2)
		if err := g.add(Case{Name: "evidence-fork-pair", Status: 1, Seat: intp(other), Rule: table.RuleEquivocation,
			Note: "two messages one seat signed for a past step, both on other previous messages than the chain's: equivocation (each alone proves nothing)"}, t); err != nil {
			return err
		}
	}
	if err := g.addBytes(Case{Name: "not-a-transcript", Status: 2, Note: "not a transcript"}, []byte("okey-transcript/v1\nnot really\n")); err != nil {
		return err
	}
	{
		// A correctly signed record that links to the last one, after the
		// match's end: there is no next step (5.2 check 3), so the file is
		// invalid, not a seat out of turn.
		t := clone(base)
		last := decode(base.Chain[n-1])
		e := &table.Envelope{Table: last.Table, Hand: last.Hand, Step: uint32(n), Seat: 0, Kind: table.KindAudit,
			Prev: last.Hash(), State: last.State, Body: make([]byte, 32)}
		if err := e.Seal(baseKeys[0], h); err != nil {
			return err
		}
		t.Chain = append(t.Chain, e.Raw)
		if err := g.add(Case{Name: "chain-after-end", Status: 2,
			Note: "a record signed by seat 0 and linked to the last record, after the match's end: it fails 5.2 check 3 (no next step); invalid, no one named"}, t); err != nil {
			return err
		}
	}
	{
		// A last record whose length is over the limit, cut short by the
		// end of the file: damage, not a torn record.
		var buf bytes.Buffer
		table.WriteTranscript(&buf, base)
		b := append(buf.Bytes(), 1, 0x00, 0x04, 0x00, 0x01, 0xaa, 0xbb)
		if err := g.addBytes(Case{Name: "torn-over-limit", Status: 2,
			Note: "a last record whose length (262,145) is over the limit and whose bytes run out: not a transcript (section 6), not a torn record"}, b); err != nil {
			return err
		}
	}
	// Lock messages with two faults each (section 4, Lock and shuffle: A_i
	// before D_i[0]; check 2 over every element before check 3), re-signed
	// by their own seat: the seat is named with the first fault's rule.
	shuffleAt := -1
	for k, raw := range base.Chain {
		if e := decode(raw); e.Kind == table.KindShuffle && e.Seat == 1 {
			shuffleAt = k
			break
		}
	}
	for _, c := range []struct {
		name  string
		rule  table.Rule
		note  string
		spoil func(lock []byte)
	}{
		{"cheat-lock-key-first", table.RuleBadShuffle, "seat 1's lock message has the identity as its key A_1 and a non-canonical D_1[0]: A_1 is checked first (bad-shuffle, not malformed-body)",
			func(lock []byte) {
				copy(lock[0:32], make([]byte, 32))
				copy(lock[32:64], bytes.Repeat([]byte{0xff}, 32))
			}},
		{"cheat-lock-check2-before-3", table.RuleMalformedBody, "seat 1's lock message repeats D_1[1] as D_1[3] and has a non-canonical D_1[50]: check 2 runs over every element before check 3 (malformed-body, not bad-shuffle)",
			func(lock []byte) {
				copy(lock[32*(1+3):32*(1+4)], lock[32*(1+1):32*(1+2)])
				copy(lock[32*(1+50):32*(1+51)], bytes.Repeat([]byte{0xff}, 32))
			}},
	} {
		t := clone(base)
		t.Chain = t.Chain[:shuffleAt+1]
		t.Chain[shuffleAt] = resign(t.Chain[shuffleAt], baseKeys[1], h, func(e *table.Envelope) {
			e.Body = append([]byte(nil), e.Body...)
			c.spoil(e.Body[commit.CommitmentSize:])
		})
		if err := g.add(Case{Name: c.name, Status: 1, Seat: intp(1), Rule: c.rule, Note: c.note}, t); err != nil {
			return err
		}
	}

	// Vectors.
	if err := g.vectors(base, "transcripts/honest-turkish-rummy-2.okey", rules101, rules101File); err != nil {
		return err
	}
	b, err := json.MarshalIndent(g.suite, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "cases.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	// The tournament cases, derived from the frozen folders already in dir.
	return GenerateTournaments(dir, w)
}

func engineName(ruleset string) string {
	r, err := engine.ParseRuleset(ruleset)
	if err != nil {
		return "x"
	}
	return r.Preset
}

func (g *gen) writeVectors(name string, f VectorFile) error {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(g.dir, name), append(b, '\n'), 0o644); err != nil {
		return err
	}
	g.suite.Vectors = append(g.suite.Vectors, name)
	return nil
}

func (g *gen) vectors(base *table.Transcript, baseFile string, t101 *table.Transcript, file101 string) error {
	x := hex.EncodeToString
	// Tile points for two sessions.
	var tp []TilePoints
	for hand, session := range [][]byte{[]byte("okey conformance session"), {0x01}} {
		v := TilePoints{Session: x(session), Hand: uint32(hand)}
		for j := 0; j < deck.DeckSize; j++ {
			p, err := deck.TilePoint(session, uint32(hand), j)
			if err != nil {
				return err
			}
			v.Points = append(v.Points, x(p.Bytes()))
		}
		tp = append(tp, v)
	}
	if err := g.writeVectors("tile-points.json", VectorFile{Kind: "tile-points", TilePoints: tp}); err != nil {
		return err
	}
	// Commit-reveal.
	var cv []CommitVector
	rng := rand.NewChaCha8([32]byte{7})
	for k, label := range []string{"okey/v1/table/hand-random", "okey/v1/table/dealer", "okey/v1/table/die/0"} {
		v := CommitVector{Label: label, Session: x([]byte("session " + fmt.Sprint(k))), Round: uint32(k), Seats: 2 + k}
		var ops [][]byte
		for seat := 0; seat < 2+k; seat++ {
			cm, op, err := commit.Commit(label, unhexS(v.Session), v.Round, seat, rng)
			if err != nil {
				return err
			}
			v.Commitment = append(v.Commitment, x(cm))
			v.Openings = append(v.Openings, x(op))
			ops = append(ops, op)
		}
		val, err := commit.Combine(label, unhexS(v.Session), v.Round, ops)
		if err != nil {
			return err
		}
		v.Value, v.Die = x(val[:]), commit.Die(val)
		v.Choice, _ = commit.Choice(val, v.Seats)
		cv = append(cv, v)
	}
	if err := g.writeVectors("commit.json", VectorFile{Kind: "commit", Commit: cv}); err != nil {
		return err
	}
	// DLEQ: the first re-key proofs of the base match, and broken variants.
	m, err := table.NewMachine(base.Config, nil)
	if err != nil {
		return err
	}
	var rekeyStep int
	var in []byte
	for k, raw := range base.Chain {
		e := decode(raw)
		if e.Kind == table.KindRekey && e.Seat == 0 {
			rekeyStep, in = k, m.Deck().Deck()
			break
		}
		if err := m.Apply(e); err != nil {
			return err
		}
	}
	rk := decode(base.Chain[rekeyStep]).Body[commit.OpeningSize:]
	A, _ := m.Deck().LockKey(0)
	var dv []DLEQVector
	for j := 0; j < 3; j++ {
		ent := rk[160*j : 160*(j+1)]
		ctx := deck.RekeyContext(m.Session(), m.HandNumber(), 0, j)
		v := DLEQVector{Comment: fmt.Sprintf("re-key proof of seat 0, position %d", j), Context: x(ctx),
			G1: x(A.Bytes()), H1: x(ent[0:32]), G2: x(in[32*j : 32*(j+1)]), H2: x(ent[32:64]), Proof: x(ent[64:160]), Valid: true}
		dv = append(dv, v)
		bad := v
		bad.Comment, bad.Valid = v.Comment+", s + 1", false
		pb := unhexS(v.Proof)
		pb[64] ^= 1
		bad.Proof = x(pb)
		dv = append(dv, bad)
		bad2 := v
		bad2.Comment, bad2.Valid = v.Comment+", for position 105 (another context)", false
		bad2.Context = x(deck.RekeyContext(m.Session(), m.HandNumber(), 0, 105))
		dv = append(dv, bad2)
	}
	if err := g.writeVectors("dleq.json", VectorFile{Kind: "dleq", DLEQ: dv}); err != nil {
		return err
	}
	// Ed25519.
	key := ed25519.NewKeyFromSeed(make([]byte, 32))
	msg := []byte("okey conformance")
	sig := ed25519.Sign(key, msg)
	pub := key.Public().(ed25519.PublicKey)
	sPlusL := addL(sig)
	ev := []Ed25519Vector{
		{Comment: "honest", Key: x(pub), Message: x(msg), Sig: x(sig), KeyOK: true, Valid: true},
		{Comment: "S + l: the same signature with a non-canonical S", Key: x(pub), Message: x(msg), Sig: x(sPlusL), KeyOK: true, Valid: false},
		{Comment: "another message", Key: x(pub), Message: x([]byte("okey")), Sig: x(sig), KeyOK: true, Valid: false},
		{Comment: "identity point as key", Key: "0100000000000000000000000000000000000000000000000000000000000000", KeyOK: false},
		{Comment: "small-order key (order 8)", Key: "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a", KeyOK: false},
		{Comment: "non-canonical key (y = p)", Key: "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", KeyOK: false},
		{Comment: "not a point", Key: "0200000000000000000000000000000000000000000000000000000000000000", KeyOK: false},
	}
	if err := g.writeVectors("ed25519.json", VectorFile{Kind: "ed25519", Ed25519: ev}); err != nil {
		return err
	}
	// Ruleset texts in configs (3.1, 3.6): each expectation is stated here
	// and checked against okey's reader.
	rv := []RulesetVector{
		{Comment: "a preset alone", Text: "classic", Seats: 2, Valid: true, Canonical: "classic"},
		{Comment: "contradictory pair: no gösterme to score in a stalemate", Text: "classic:no-gosterme,stalemate-show", Seats: 3},
		{Comment: "a repeated option, other values: refused by name", Text: "classic:one-colour=any,one-colour=red-black", Seats: 2},
		{Comment: "a repeated option, same value", Text: "classic:one-colour=any,one-colour=any", Seats: 2},
		{Comment: "an option equal to its default: not canonical", Text: "classic:deal=stacks", Seats: 2, Canonical: "classic"},
		{Comment: "options out of order: not canonical", Text: "classic:points=2,leave-at-zero", Seats: 2, Canonical: "classic:leave-at-zero,points=2"},
		{Comment: "a space: not canonical", Text: "classic: points=2", Seats: 2, Canonical: "classic:points=2"},
		{Comment: "indicator-last goes with the simple deal", Text: "classic:deal=simple,indicator-last", Seats: 3, Valid: true, Canonical: "classic:deal=simple,indicator-last"},
		{Comment: "stalemate-show alone", Text: "classic:stalemate-show", Seats: 2, Valid: true, Canonical: "classic:stalemate-show"},
		{Comment: "partnerships need 4 seats", Text: "classic:partnerships", Seats: 3, Canonical: "classic:partnerships"},
		{Comment: "partnerships with 4 seats", Text: "classic:partnerships", Seats: 4, Valid: true, Canonical: "classic:partnerships"},
		{Comment: "german's default partnerships, no effect with 3 seats", Text: "german", Seats: 3, Valid: true, Canonical: "german"},
		{Comment: "german's default partnerships with 4 seats", Text: "german", Seats: 4, Valid: true, Canonical: "german"},
		{Comment: "no-partnerships has no effect with 3 seats: refused (a second spelling of german)", Text: "german:no-partnerships", Seats: 3, Canonical: "german:no-partnerships"},
		{Comment: "no-partnerships with 4 seats", Text: "german:no-partnerships", Seats: 4, Valid: true, Canonical: "german:no-partnerships"},
		{Comment: "german partnerships is the default: not canonical", Text: "german:partnerships", Seats: 4, Canonical: "german"},
		{Comment: "contradictory pair", Text: "german:no-partnerships,partnerships", Seats: 4},
		{Comment: "rounds=5 is the default with strokes: not canonical", Text: "german:rounds=5,strokes", Seats: 2, Canonical: "german:strokes"},
		{Comment: "rounds=5 without strokes", Text: "german:rounds=5", Seats: 2, Valid: true, Canonical: "german:rounds=5"},
		{Comment: "contradictory pair: strokes start from 0", Text: "german:points=3,strokes", Seats: 2},
		{Comment: "contradictory pair: no account reaches 0 with strokes", Text: "german:leave-at-zero,strokes", Seats: 2},
		{Comment: "contradictory pair: strokes score no points to lose", Text: "german:others-lose,strokes", Seats: 2},
		{Comment: "a repeated numeric option", Text: "german:rounds=3,rounds=3", Seats: 2},
		{Comment: "turkish-rummy's rounds=3 is its default for every seat count: not canonical", Text: "turkish-rummy:rounds=3", Seats: 2, Canonical: "turkish-rummy"},
		{Comment: "turkish-rummy's one-hand game", Text: "turkish-rummy:rounds=1", Seats: 4, Valid: true, Canonical: "turkish-rummy:rounds=1"},
		{Comment: "a repeated option, other values", Text: "turkish-rummy:rounds=1,rounds=3", Seats: 2},
		{Comment: "contradictory pair", Text: "101:no-joker-swap,swap-before-open", Seats: 2},
		{Comment: "contradictory pair: without swaps no discard replaces an okey", Text: "101:no-joker-swap,no-swap-penalty", Seats: 2},
		{Comment: "no-swap-penalty", Text: "101:no-swap-penalty", Seats: 2, Valid: true, Canonical: "101:no-swap-penalty"},
		{Comment: "no-swap-penalty goes with swap-before-open", Text: "101:no-swap-penalty,swap-before-open", Seats: 3, Valid: true, Canonical: "101:no-swap-penalty,swap-before-open"},
		{Comment: "a repeated flag", Text: "101:no-cancel,no-cancel", Seats: 2},
		{Comment: "101's default rounds: not canonical", Text: "101:rounds=5", Seats: 2, Canonical: "101"},
		{Comment: "101 partnerships need 4 seats", Text: "101:partnerships", Seats: 3, Canonical: "101:partnerships"},
	}
	for _, v := range rv {
		if valid, canonical := CheckRuleset(v.Text, v.Seats); valid != v.Valid || canonical != v.Canonical {
			return fmt.Errorf("ruleset vector %q with %d seats: okey says valid %v canonical %q, want %v %q",
				v.Text, v.Seats, valid, canonical, v.Valid, v.Canonical)
		}
	}
	if err := g.writeVectors("ruleset.json", VectorFile{Kind: "ruleset", Ruleset: rv}); err != nil {
		return err
	}
	// Display names in configs (5.1).
	nv := []NameVector{
		{Comment: "plain", Name: x([]byte("seat 1")), Valid: true},
		{Comment: "empty", Name: ""},
		{Comment: "32 bytes", Name: x(bytes.Repeat([]byte("ü"), 16)), Valid: true},
		{Comment: "33 bytes", Name: x([]byte(strings.Repeat("a", 33)))},
		{Comment: "C0 control U+001F", Name: x([]byte("a\x1fb"))},
		{Comment: "DEL U+007F", Name: x([]byte("a\x7fb"))},
		{Comment: "C1 control U+0085", Name: x([]byte("a\u0085b"))},
		{Comment: "C1 control U+009F", Name: x([]byte("a\u009fb"))},
		{Comment: "U+00A0, the first code point after C1", Name: x([]byte("a\u00a0b")), Valid: true},
		{Comment: "a format character U+200B", Name: x([]byte("a\u200bb")), Valid: true},
		{Comment: "leading and trailing spaces", Name: x([]byte(" a ")), Valid: true},
		{Comment: "invalid UTF-8", Name: x([]byte{'a', 0xff})},
	}
	for _, v := range nv {
		if ok := table.CheckName(string(unhexS(v.Name))) == nil; ok != v.Valid {
			return fmt.Errorf("name vector %q: okey says %v", v.Comment, ok)
		}
	}
	if err := g.writeVectors("name.json", VectorFile{Kind: "name", Name: nv}); err != nil {
		return err
	}
	// State-hash preimages at named steps of the base match.
	var sv []StateVector
	named := map[string]int{"before the first hello": 0, "after the hellos": 2, "after the last re-key of hand 0": 0, "after the deal": 0, "at the last step": len(base.Chain) - 1}
	for k, raw := range base.Chain {
		e := decode(raw)
		if e.Kind == table.KindOpen && named["after the last re-key of hand 0"] == 0 {
			named["after the last re-key of hand 0"] = k
		}
		if e.Kind == table.KindMove && named["after the deal"] == 0 {
			named["after the deal"] = k
		}
	}
	for _, name := range []string{"before the first hello", "after the hellos", "after the last re-key of hand 0", "after the deal", "at the last step"} {
		step := named[name]
		pre, err := StatePreimage(filepath.Join(g.dir, baseFile), step)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(pre)
		if sum != decode(base.Chain[step]).State {
			return fmt.Errorf("state vector %q: preimage does not hash to the envelope's state", name)
		}
		sv = append(sv, StateVector{Comment: name, Transcript: baseFile, Step: step, Preimage: x(pre), Hash: x(sum[:])})
	}
	sv101, err := g.vectors101(t101, file101)
	if err != nil {
		return err
	}
	sv = append(sv, sv101...)
	return g.writeVectors("state-hash.json", VectorFile{Kind: "state-hash", State: sv})
}

func unhexS(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// addL returns sig with l added to S (little-endian), a non-canonical S.
func addL(sig []byte) []byte {
	l := [32]byte{0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10}
	out := append([]byte(nil), sig...)
	carry := 0
	for i := 0; i < 32; i++ {
		v := int(out[32+i]) + int(l[i]) + carry
		out[32+i] = byte(v)
		carry = v >> 8
	}
	return out
}
