package engine

import (
	"fmt"
)

// Okey 101 (okey-classic.txt, "Okey 101"; protocol.md 3.6): one round as a
// deterministic state machine beside the classic Hand. It shares tiles,
// slots, the faces opened to all and the okey with the classic game; what it
// adds is the table of melds, openings, the penalties and the scoring.

// Act101 names an action of a 101 round.
type Act101 uint8

// The actions of a 101 round.
const (
	// Act101Reveal opens the pending slots to everyone: the indicator
	// candidate after the deal, every rack at the end of the round.
	Act101Reveal Act101 = iota + 1
	// Act101Draw takes the bank's next tile.
	Act101Draw
	// Act101Take takes the previous player's discard.
	Act101Take
	// Act101GiveBack puts the discard just taken back; the player then
	// draws from the bank (with the bank empty the round ends).
	Act101GiveBack
	// Act101Lay lays new melds from the rack: the opening, or more melds
	// after it.
	Act101Lay
	// Act101Add adds tiles from the rack to a meld on the table.
	Act101Add
	// Act101Swap replaces an okey on the table with the tile it stands for;
	// the okey goes to the rack.
	Act101Swap
	// Act101Discard ends the turn (or, emptying the rack, the round).
	Act101Discard
	// Act101Exhaust ends the round when the bank is empty and the player
	// does not take the previous discard.
	Act101Exhaust
)

var act101Names = [...]string{"", "reveal", "draw", "take", "give-back", "lay", "add", "swap", "discard", "exhaust"}

func (k Act101) String() string {
	if int(k) < len(act101Names) && k != 0 {
		return act101Names[k]
	}
	return fmt.Sprintf("Act101(%d)", k)
}

// MeldPlay is a meld laid or the tiles added to one: the tiles with their
// faces (opened to everyone as they are laid) and the face each plays as.
type MeldPlay struct {
	Tiles []SlotFace
	As    []Face
}

// Action101 is one step of a 101 round. Fields a kind does not use are zero.
type Action101 struct {
	Kind  Act101
	Seat  int
	Faces []SlotFace // reveal: the pending slots in order; discard and swap: the rack tile
	Melds []MeldPlay // lay: the new melds; add: one, the tiles added
	Meld  int        // add, swap: the meld's index on the table
	Pos   int        // swap: the okey's position in the meld
}

// Phase101 is where a 101 round is.
type Phase101 uint8

// The phases of a 101 round.
const (
	Phase101Indicator Phase101 = iota + 1 // the indicator candidate must be opened
	Phase101Play
	Phase101Reveal // the round has ended: the racks must be opened to score
	Phase101Over
)

var phase101Names = [...]string{"", "indicator", "play", "reveal", "over"}

func (p Phase101) String() string {
	if int(p) < len(phase101Names) && p != 0 {
		return phase101Names[p]
	}
	return fmt.Sprintf("Phase101(%d)", p)
}

// Opened says whether and how a player has opened.
type Opened uint8

// How a player opened.
const (
	NotOpened Opened = iota
	OpenedSets
	OpenedDoubles
)

// End101 says how a round ended.
type End101 uint8

// The ends of a round.
const (
	EndFinish    End101 = iota + 1 // a player laid everything and discarded
	EndExhausted                   // the bank ran out
	EndCancelled                   // every player opened with doubles
)

// PenaltyKind names an additional penalty of 101.
type PenaltyKind uint8

// The additional penalties.
const (
	PenaltyJokerDiscard PenaltyKind = iota + 1 // discarding an okey
	PenaltyAddable                             // discarding a tile that fits a meld on the table
	PenaltyJokerInHand                         // an okey left in the rack at the end
)

var penaltyNames = [...]string{"", "okey-discard", "addable-discard", "okey-in-hand"}

func (k PenaltyKind) String() string {
	if int(k) < len(penaltyNames) && k != 0 {
		return penaltyNames[k]
	}
	return fmt.Sprintf("PenaltyKind(%d)", k)
}

// Penalty101 is one additional penalty: who, why, for which tile, how much.
type Penalty101 struct {
	Seat   int
	Kind   PenaltyKind
	Slot   Slot
	Points int
}

// PenaltyPoints101 is what each additional penalty costs.
const PenaltyPoints101 = 101

// Result101 is how a round ended and what it scored.
type Result101 struct {
	End         End101
	Finisher    int  // the seat that finished, or -1
	JokerFinish bool // the finishing discard was an okey
	OneTurn     bool // the finisher opened and finished in one turn, nobody else opened
	// Points is each seat's points for the round (negative for the
	// finisher): HandPoints plus the penalties.
	Points     []int
	HandPoints []int
	Penalties  []Penalty101
}

// Errors of 101 moves (each wraps the rule broken; see also the classic
// ErrPhase, ErrTurn, ErrNotHeld, ErrMustDraw, ErrDrawn, ErrEmptyStock,
// ErrStockLeft, ErrNoDiscard, ErrFace, ErrBadAction and ErrMeld).
var (
	ErrNotOpened = sentinel("the player has not opened")
	ErrOpening   = sentinel("an opening needs 101 points in sets and runs or five doubles")
	ErrMustUse   = sentinel("the discard taken must be used this turn")
	ErrKeepTile  = sentinel("a turn ends with a discard: a tile must stay in the rack")
	ErrSwap      = sentinel("okey swap not allowed")
	ErrPreset    = sentinel("wrong game for this preset")
	// ErrDealerFirst is the ErrPhase of a dealer whose first move is not
	// its discard (it holds the 22nd tile: no draw, no take, no lay).
	ErrDealerFirst error = &Error{Kind: ErrPhase, Detail: "the dealer starts by discarding"}
)

// Game101 is the public state of one round of 101: every peer holds an
// identical copy and applies the same actions in the same order. Faces not
// opened to everyone never enter it.
type Game101 struct {
	board  // order: the dealer first
	opt    Options101
	cancel bool // an all-doubles round is cancelled (the replay cap is not reached)

	phase     Phase101
	melds     []Meld
	opened    []Opened
	openedAt  []int // the turn (count of discards) in which a seat opened, -1
	penalties []Penalty101

	taken     Slot // the discard taken this turn, NoSlot
	takenFrom int
	takenUsed bool
	gaveBack  bool

	result *Result101
}

// NewGame101 deals a round: n players, the dealer plays first with 22 tiles,
// the others 21 (slots from 0 in order of play); the next slot is the
// indicator candidate. cancel says whether a round where every player opens
// with doubles is cancelled.
func NewGame101(r Ruleset, n, dealer int, cancel bool) (*Game101, error) {
	if r.Preset != Preset101 {
		return nil, errorf(ErrPreset, "%s is not %s", r.Preset, Preset101)
	}
	if err := r.CheckPlayers(n); err != nil {
		return nil, err
	}
	if dealer < 0 || dealer >= n {
		return nil, errorf(ErrBadAction, "dealer %d of %d", dealer, n)
	}
	g := &Game101{board: newBoard(r, n, dealer), opt: r.Game101, cancel: cancel && !r.Game101.NoCancel,
		phase: Phase101Indicator, taken: NoSlot, takenFrom: -1, opened: make([]Opened, n), openedAt: make([]int, n)}
	next := Slot(0)
	for i := 0; i < n; i++ {
		seat := (dealer + i) % n
		g.order = append(g.order, seat)
		size := r.HandSize
		if i == 0 {
			size++
		}
		for k := 0; k < size; k++ {
			g.racks[seat] = append(g.racks[seat], next)
			next++
		}
		g.openedAt[seat] = -1
	}
	for s := next; s < DeckSize; s++ {
		g.stock = append(g.stock, s)
	}
	g.pending = []Slot{g.stock[0]}
	return g, nil
}

// Phase returns the round's phase.
func (g *Game101) Phase() Phase101 { return g.phase }

// Melds returns the melds on the table in the order they were laid.
func (g *Game101) Melds() []Meld {
	out := make([]Meld, len(g.melds))
	for i, m := range g.melds {
		out[i] = m.clone()
	}
	return out
}

// DealerFirst reports whether the round is at its first turn, the
// dealer's, whose move after its draw is a discard: no lay, add or swap
// comes before it (ErrDealerFirst).
func (g *Game101) DealerFirst() bool { return g.turns == 0 }

// Opened returns how a seat has opened.
func (g *Game101) Opened(seat int) Opened { return g.opened[seat] }

// Penalties returns the additional penalties so far, in order.
func (g *Game101) Penalties() []Penalty101 { return append([]Penalty101(nil), g.penalties...) }

// Turn returns the seat to play, whether it has drawn (or taken) this turn,
// and the discard it took this turn (NoSlot). seat is -1 outside play.
func (g *Game101) Turn() (seat int, drawn bool, taken Slot) {
	if g.phase != Phase101Play {
		return -1, false, NoSlot
	}
	return g.order[g.turn], g.drawn, g.taken
}

// Result returns the round's result once it is over.
func (g *Game101) Result() (Result101, bool) {
	if g.result == nil || g.phase != Phase101Over {
		return Result101{}, false
	}
	return g.result.clone(), true
}

func (r Result101) clone() Result101 {
	r.Points = append([]int(nil), r.Points...)
	r.HandPoints = append([]int(nil), r.HandPoints...)
	r.Penalties = append([]Penalty101(nil), r.Penalties...)
	return r
}

// Need returns what the round waits for: a reveal of Slots, a seat's move,
// or nothing (Over).
func (g *Game101) Need() Need {
	switch g.phase {
	case Phase101Indicator, Phase101Reveal:
		return Need{Kind: ActReveal, Seat: -1, Slots: g.Pending()}
	case Phase101Play:
		return Need{Seat: g.order[g.turn]}
	}
	return Need{Seat: -1, Over: true}
}

// IsOkeySlot reports whether a slot is opened to everyone as an okey.
func (g *Game101) IsOkeySlot(s Slot) bool { return g.okey != NoFace && g.PublicFace(s) == g.okey }

// Fits reports whether a tile of face f could be added to a meld on the
// table now (or replace an okey there when swaps are allowed, unless
// no-swap-penalty): discarding it costs 101 unless it is the finishing
// discard.
func (g *Game101) Fits(f Face) bool {
	if f == NoFace || f == g.okey {
		return false
	}
	f = natural(g.okey, f)
	for i := range g.melds {
		if fits101(&g.melds[i], f, !g.opt.NoJokerSwap && !g.opt.NoSwapPenalty, g.IsOkeySlot) {
			return true
		}
	}
	return false
}

// AddTargets returns, in table order, the melds a tile of face f could be
// added to now and the melds holding an okey it could replace (for hints
// and bots; whether the player may do so depends on having opened).
func (g *Game101) AddTargets(f Face) (add, swap []int) {
	if f == NoFace || !f.Valid() || f == g.okey {
		return nil, nil
	}
	f = natural(g.okey, f)
	for i := range g.melds {
		if fits101(&g.melds[i], f, false, g.IsOkeySlot) {
			add = append(add, i)
		} else if !g.opt.NoJokerSwap && fits101(&g.melds[i], f, true, g.IsOkeySlot) {
			swap = append(swap, i)
		}
	}
	return add, swap
}

// Apply applies one action. On error the round is unchanged and the error
// wraps the rule broken.
func (g *Game101) Apply(a Action101) error {
	c := g.clone()
	if err := c.apply(a); err != nil {
		return err
	}
	*g = *c
	return nil
}

func (g *Game101) clone() *Game101 {
	c := *g
	c.board = g.board.clone()
	c.melds = make([]Meld, len(g.melds))
	for i, m := range g.melds {
		c.melds[i] = m.clone()
	}
	c.opened = append([]Opened(nil), g.opened...)
	c.openedAt = append([]int(nil), g.openedAt...)
	c.penalties = append([]Penalty101(nil), g.penalties...)
	if g.result != nil {
		r := g.result.clone()
		c.result = &r
	}
	return &c
}

func (g *Game101) apply(a Action101) error {
	if a.Kind == Act101Reveal {
		return g.applyReveal(a)
	}
	if a.Kind < Act101Draw || a.Kind > Act101Exhaust {
		return errorf(ErrBadAction, "unknown kind %d", a.Kind)
	}
	if g.phase != Phase101Play {
		return errorf(ErrPhase, "%v in phase %v", a.Kind, g.phase)
	}
	if a.Seat != g.order[g.turn] {
		return errorf(ErrTurn, "seat %d, expected seat %d", a.Seat, g.order[g.turn])
	}
	if (a.Kind != Act101Lay && a.Kind != Act101Add) && len(a.Melds) != 0 ||
		(a.Kind != Act101Discard && a.Kind != Act101Swap) && len(a.Faces) != 0 ||
		(a.Kind != Act101Add && a.Kind != Act101Swap) && a.Meld != 0 || a.Kind != Act101Swap && a.Pos != 0 {
		return errorf(ErrBadAction, "fields that %v does not use", a.Kind)
	}
	if a.Kind != Act101Draw && a.Kind != Act101Take && a.Kind != Act101Exhaust && a.Kind != Act101Discard {
		if !g.drawn {
			return errorf(ErrMustDraw, "seat %d", a.Seat)
		}
		if g.turns == 0 && a.Kind != Act101GiveBack {
			return ErrDealerFirst
		}
	}
	switch a.Kind {
	case Act101Draw:
		return g.applyDraw(a.Seat)
	case Act101Take:
		return g.applyTake(a.Seat)
	case Act101GiveBack:
		return g.applyGiveBack(a.Seat)
	case Act101Lay:
		return g.applyLay(a)
	case Act101Add:
		return g.applyAdd(a)
	case Act101Swap:
		return g.applySwap(a)
	case Act101Discard:
		return g.applyDiscard(a)
	default:
		return g.applyExhaust()
	}
}

func (g *Game101) applyReveal(a Action101) error {
	if g.phase != Phase101Indicator && g.phase != Phase101Reveal {
		return errorf(ErrPhase, "reveal in phase %v", g.phase)
	}
	if a.Seat != 0 && a.Seat != -1 || len(a.Melds) != 0 || a.Meld != 0 || a.Pos != 0 {
		return errorf(ErrBadAction, "a reveal carries only faces")
	}
	if err := g.revealPending(a.Faces); err != nil {
		return err
	}
	if g.phase == Phase101Reveal {
		g.pending = nil
		g.score()
		g.phase = Phase101Over
		return nil
	}
	sf := a.Faces[0]
	if sf.Face == FalseJoker {
		// A false joker is no indicator: it stays in the bank, known to
		// all, and the next tile is turned up.
		return g.turnUpNext(sf.Slot)
	}
	g.setIndicator(sf.Slot)
	g.stock, _ = removeSlot(g.stock, g.indicator)
	g.phase = Phase101Play
	g.drawn = true // the dealer holds 22 and starts by discarding
	return nil
}

func (g *Game101) applyDraw(seat int) error {
	if g.drawn {
		return errorf(ErrDrawn, "seat %d", seat)
	}
	return g.draw(seat)
}

func (g *Game101) applyTake(seat int) error {
	if g.drawn {
		return errorf(ErrDrawn, "seat %d", seat)
	}
	if g.gaveBack {
		return errorf(ErrNoDiscard, "seat %d gave the discard back and draws from the bank", seat)
	}
	t, from, err := g.take(seat)
	if err != nil {
		return err
	}
	g.taken, g.takenFrom = t, from
	return nil
}

func (g *Game101) applyGiveBack(seat int) error {
	if g.taken == NoSlot || g.takenUsed || !contains(g.racks[seat], g.taken) {
		return errorf(ErrNoDiscard, "seat %d has no taken discard to give back", seat)
	}
	g.racks[seat], _ = removeSlot(g.racks[seat], g.taken)
	g.piles[g.takenFrom] = append(g.piles[g.takenFrom], g.taken)
	g.lastFrom = g.takenFrom
	g.taken, g.takenFrom, g.drawn, g.gaveBack = NoSlot, -1, false, true
	if len(g.stock) == 0 {
		// Nothing to draw instead: the round ends as with an empty bank.
		return g.applyExhaust()
	}
	return nil
}

// layTiles checks that the tiles of plays are in seat's rack, distinct and
// consistent with the faces known, records their faces, and returns the
// faces per play; at least one tile must stay in the rack.
func (g *Game101) layTiles(seat int, plays []MeldPlay) ([][]Face, []Slot, error) {
	var faces [][]Face
	var slots []Slot
	for _, p := range plays {
		if len(p.Tiles) != len(p.As) || len(p.Tiles) == 0 {
			return nil, nil, errorf(ErrBadAction, "%d tiles, %d faces played", len(p.Tiles), len(p.As))
		}
		var fs []Face
		for _, sf := range p.Tiles {
			if !contains(g.racks[seat], sf.Slot) {
				return nil, nil, errorf(ErrNotHeld, "seat %d slot %d", seat, sf.Slot)
			}
			if contains(slots, sf.Slot) {
				return nil, nil, errorf(ErrBadAction, "slot %d laid twice", sf.Slot)
			}
			if err := g.setPublic(sf); err != nil {
				return nil, nil, err
			}
			slots = append(slots, sf.Slot)
			fs = append(fs, sf.Face)
		}
		faces = append(faces, fs)
	}
	if len(slots) >= len(g.racks[seat]) {
		return nil, nil, errorf(ErrKeepTile, "seat %d", seat)
	}
	return faces, slots, nil
}

func (g *Game101) removeFromRack(seat int, slots []Slot) {
	for _, s := range slots {
		g.racks[seat], _ = removeSlot(g.racks[seat], s)
		if s == g.taken {
			g.takenUsed = true
		}
	}
}

func (g *Game101) applyLay(a Action101) error {
	seat := a.Seat
	if len(a.Melds) == 0 {
		return errorf(ErrBadAction, "a lay needs a meld")
	}
	faces, slots, err := g.layTiles(seat, a.Melds)
	if err != nil {
		return err
	}
	kinds := make([]GroupKind, len(a.Melds))
	value, pairs := 0, 0
	for i, p := range a.Melds {
		k, err := meldKind101(g.okey, faces[i], p.As, !g.opt.NoJokerDoubles)
		if err != nil {
			return err
		}
		kinds[i] = k
		if k == Pair {
			pairs++
		} else {
			value += meldValue101(k, p.As)
		}
	}
	opening := g.opened[seat] == NotOpened
	switch g.opened[seat] {
	case NotOpened:
		switch {
		case pairs == len(kinds) && pairs >= 5:
			g.opened[seat] = OpenedDoubles
		case pairs == 0 && value >= 101:
			g.opened[seat] = OpenedSets
		default:
			return errorf(ErrOpening, "%d points, %d doubles", value, pairs)
		}
		if g.taken != NoSlot && !contains(slots, g.taken) {
			return errorf(ErrMustUse, "seat %d opens without the discard it took", seat)
		}
		g.openedAt[seat] = g.turns
	case OpenedSets:
		if pairs > 0 {
			return errorf(ErrMeld, "seat %d opened with sets and lays no doubles", seat)
		}
	case OpenedDoubles:
		if pairs != len(kinds) {
			return errorf(ErrMeld, "seat %d opened with doubles and lays no sets or runs", seat)
		}
	}
	for i, p := range a.Melds {
		m := Meld{Owner: seat, Kind: kinds[i], As: append([]Face(nil), p.As...)}
		for _, sf := range p.Tiles {
			m.Tiles = append(m.Tiles, sf.Slot)
		}
		if m.Kind != Pair {
			sortMeld(m.Tiles, m.As)
		}
		g.melds = append(g.melds, m)
	}
	g.removeFromRack(seat, slots)
	if opening && g.opened[seat] == OpenedDoubles && g.cancel {
		all := true
		for _, s := range g.order {
			all = all && g.opened[s] == OpenedDoubles
		}
		if all {
			g.result = &Result101{End: EndCancelled, Finisher: -1, Points: make([]int, g.n), HandPoints: make([]int, g.n)}
			g.phase = Phase101Over
		}
	}
	return nil
}

func (g *Game101) applyAdd(a Action101) error {
	seat := a.Seat
	if g.opened[seat] == NotOpened {
		return errorf(ErrNotOpened, "seat %d adds to a meld", seat)
	}
	if len(a.Melds) != 1 {
		return errorf(ErrBadAction, "an add carries the tiles for one meld")
	}
	if a.Meld < 0 || a.Meld >= len(g.melds) {
		return errorf(ErrBadAction, "no meld %d on the table", a.Meld)
	}
	m := g.melds[a.Meld].clone()
	if m.Kind == Pair {
		return errorf(ErrMeld, "nothing is added to a double")
	}
	faces, slots, err := g.layTiles(seat, a.Melds)
	if err != nil {
		return err
	}
	p := a.Melds[0]
	for i, f := range faces[0] {
		if !plays(g.okey, f, p.As[i]) {
			return errorf(ErrMeld, "%v cannot play as %v", f, p.As[i])
		}
	}
	m.Tiles = append(m.Tiles, slots...)
	m.As = append(m.As, p.As...)
	if m.Kind == Set && !isSet101(m.As) || m.Kind == Run && !isRun101(m.As) {
		return errorf(ErrMeld, "%s does not extend the %v", FormatFaces(p.As), m.Kind)
	}
	sortMeld(m.Tiles, m.As)
	g.melds[a.Meld] = m
	g.removeFromRack(seat, slots)
	return nil
}

func (g *Game101) applySwap(a Action101) error {
	seat := a.Seat
	if g.opt.NoJokerSwap {
		return errorf(ErrSwap, "no-joker-swap")
	}
	if g.opened[seat] == NotOpened && !g.opt.SwapBeforeOpen {
		return errorf(ErrNotOpened, "seat %d swaps an okey", seat)
	}
	if a.Meld < 0 || a.Meld >= len(g.melds) || a.Pos < 0 || a.Pos >= len(g.melds[a.Meld].Tiles) {
		return errorf(ErrBadAction, "no tile %d of meld %d", a.Pos, a.Meld)
	}
	m := &g.melds[a.Meld]
	okeySlot := m.Tiles[a.Pos]
	if !g.IsOkeySlot(okeySlot) {
		return errorf(ErrSwap, "tile %d of meld %d is not an okey", a.Pos, a.Meld)
	}
	if len(a.Faces) != 1 {
		return errorf(ErrBadAction, "a swap opens exactly the tile laid")
	}
	sf := a.Faces[0]
	if !contains(g.racks[seat], sf.Slot) {
		return errorf(ErrNotHeld, "seat %d slot %d", seat, sf.Slot)
	}
	if err := g.setPublic(sf); err != nil {
		return err
	}
	if sf.Face == g.okey || !plays(g.okey, sf.Face, m.As[a.Pos]) {
		return errorf(ErrSwap, "%v does not stand for %v", sf.Face, m.As[a.Pos])
	}
	if g.opened[seat] == NotOpened && sf.Slot == g.taken {
		// swap-before-open: a player who has not opened opens with the
		// discard it took; it may not trade it for an okey instead.
		return errorf(ErrMustUse, "seat %d has not opened and must open with the discard it took", seat)
	}
	m.Tiles[a.Pos] = sf.Slot
	g.removeFromRack(seat, []Slot{sf.Slot})
	g.racks[seat] = insertSlot(g.racks[seat], okeySlot)
	return nil
}

func (g *Game101) applyDiscard(a Action101) error {
	seat := a.Seat
	if !g.drawn {
		return errorf(ErrMustDraw, "seat %d", seat)
	}
	if len(a.Faces) != 1 {
		return errorf(ErrBadAction, "a discard opens exactly its tile")
	}
	sf := a.Faces[0]
	rack, ok := removeSlot(g.racks[seat], sf.Slot)
	if !ok {
		return errorf(ErrNotHeld, "seat %d slot %d", seat, sf.Slot)
	}
	if g.taken != NoSlot && !g.takenUsed {
		return errorf(ErrMustUse, "seat %d took slot %d", seat, g.taken)
	}
	if err := g.setPublic(sf); err != nil {
		return err
	}
	finish := len(rack) == 0
	switch {
	case sf.Face == g.okey:
		if !finish || g.opt.FinishJokerPenalty {
			g.penalties = append(g.penalties, Penalty101{Seat: seat, Kind: PenaltyJokerDiscard, Slot: sf.Slot, Points: PenaltyPoints101})
		}
	case !finish && g.Fits(sf.Face):
		g.penalties = append(g.penalties, Penalty101{Seat: seat, Kind: PenaltyAddable, Slot: sf.Slot, Points: PenaltyPoints101})
	}
	g.discard(seat, rack, sf.Slot)
	if finish {
		others := false
		for s := 0; s < g.n; s++ {
			others = others || s != seat && g.opened[s] != NotOpened
		}
		g.result = &Result101{End: EndFinish, Finisher: seat, JokerFinish: sf.Face == g.okey,
			OneTurn: g.openedAt[seat] == g.turns && !others}
		g.turns++
		g.endRound()
		return nil
	}
	g.pass()
	g.taken, g.takenFrom, g.takenUsed, g.gaveBack = NoSlot, -1, false, false
	return nil
}

func (g *Game101) applyExhaust() error {
	if g.drawn {
		return errorf(ErrDrawn, "the player has drawn")
	}
	if len(g.stock) != 0 {
		return errorf(ErrStockLeft, "%d tiles left", len(g.stock))
	}
	g.result = &Result101{End: EndExhausted, Finisher: -1}
	g.endRound()
	return nil
}

// endRound asks for every rack to be opened to all (seat order, each rack
// ascending) so that the round can be scored.
func (g *Game101) endRound() {
	g.phase = Phase101Reveal
	g.pending = nil
	for s := 0; s < g.n; s++ {
		g.pending = append(g.pending, g.racks[s]...)
	}
	if len(g.pending) == 0 {
		g.score()
		g.phase = Phase101Over
	}
}

// score fills the result's points (protocol.md 3.6, "Scoring"): every
// rack's face is public by now.
func (g *Game101) score() {
	r := g.result
	r.Points, r.HandPoints = make([]int, g.n), make([]int, g.n)
	mult := 1
	jokerMult := 1
	if r.End == EndFinish {
		if r.JokerFinish {
			jokerMult = 2
		}
		if g.opened[r.Finisher] == OpenedDoubles {
			mult *= 2
		}
		if r.OneTurn {
			mult *= 2
		}
	}
	// finisherMult is the finisher's M: without the doubles opener's
	// doubling under doubles-finisher-single.
	finisherMult := mult
	if r.End == EndFinish && g.opened[r.Finisher] == OpenedDoubles && g.opt.DoublesFinisherSingle {
		finisherMult /= 2
	}
	for s := 0; s < g.n; s++ {
		jokers, sum := 0, 0
		for _, t := range g.racks[s] {
			f := g.public[t]
			if f == g.okey {
				jokers++
				if g.opt.OkeyFaceValue {
					sum += f.Number()
				}
				continue
			}
			sum += natural(g.okey, f).Number()
		}
		switch {
		case s == r.Finisher:
			r.HandPoints[s] = -101 * finisherMult * jokerMult
		case g.opened[s] == NotOpened:
			r.HandPoints[s] = 202 * mult * jokerMult
			if g.opt.UnopenedJokerPenalty {
				for k := 0; k < jokers; k++ {
					g.penalties = append(g.penalties, Penalty101{Seat: s, Kind: PenaltyJokerInHand, Slot: NoSlot, Points: PenaltyPoints101})
				}
			}
		default:
			m := mult
			if !g.opt.JokerFinishSingleSums {
				m *= jokerMult
			}
			if g.opened[s] == OpenedDoubles {
				m *= 2
			}
			r.HandPoints[s] = sum * m
			for k := 0; k < jokers; k++ {
				g.penalties = append(g.penalties, Penalty101{Seat: s, Kind: PenaltyJokerInHand, Slot: NoSlot, Points: PenaltyPoints101})
			}
		}
	}
	r.Penalties = append([]Penalty101(nil), g.penalties...)
	copy(r.Points, r.HandPoints)
	for _, p := range r.Penalties {
		r.Points[p.Seat] += p.Points
	}
}

// LayAction101 builds the action that lays groups (as BestOpening101 returns
// them: printed faces and the faces they play as) from a rack whose slots
// and faces a player knows. ok is false when the rack lacks a tile.
func LayAction101(seat int, slots []Slot, faces []Face, groups []Group) (Action101, bool) {
	used := make([]bool, len(slots))
	a := Action101{Kind: Act101Lay, Seat: seat}
	for _, gr := range groups {
		var p MeldPlay
		for i, f := range gr.Tiles {
			k := -1
			for j := range slots {
				if !used[j] && faces[j] == f {
					k = j
					break
				}
			}
			if k < 0 {
				return Action101{}, false
			}
			used[k] = true
			p.Tiles = append(p.Tiles, SlotFace{slots[k], f})
			p.As = append(p.As, gr.As[i])
		}
		a.Melds = append(a.Melds, p)
	}
	return a, true
}
