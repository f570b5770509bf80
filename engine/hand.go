package engine

import (
	"fmt"
)

// Slot is a position in one hand's shuffled deck, 0..105. Which tile (and so
// which face) sits at a slot is secret until the slot is revealed: the engine
// tracks where every slot is and the faces revealed to everyone.
type Slot uint8

// NoSlot marks "no slot" (for example a win with no final discard).
const NoSlot Slot = 0xFF

// SlotFace is a slot with the face revealed for it.
type SlotFace struct {
	Slot Slot
	Face Face
}

// ActionKind names an action.
type ActionKind uint8

const (
	// ActRoll applies a die roll (from the table's commit-reveal) in the deal.
	ActRoll ActionKind = iota + 1
	// ActReveal opens slots to everyone during the deal (indicator, order draw).
	ActReveal
	// ActDraw takes the next tile of the stock.
	ActDraw
	// ActTake takes the previous player's discard.
	ActTake
	// ActDiscard discards a tile from the rack, opened to everyone.
	ActDiscard
	// ActShow is gösterme: showing the tile that matches the face-up tile.
	ActShow
	// ActWin ends the hand: the final discard (or none, for a german seven
	// pairs) and the whole rack opened to everyone.
	ActWin
	// ActExhaust ends the hand when the stock is empty and the player does not
	// take the previous discard.
	ActExhaust
)

var actionNames = [...]string{"", "roll", "reveal", "draw", "take", "discard", "show", "win", "exhaust"}

func (k ActionKind) String() string {
	if int(k) < len(actionNames) && k != 0 {
		return actionNames[k]
	}
	return fmt.Sprintf("ActionKind(%d)", k)
}

// Action is one step of a hand. Fields not used by a kind are zero.
type Action struct {
	Kind  ActionKind
	Seat  int        // who acts (draw, take, discard, show, win, exhaust)
	Slot  Slot       // the tile discarded or shown; the final discard of a win (NoSlot for none)
	Value int        // a die value (roll)
	Faces []SlotFace // faces opened to everyone by this action
}

// Phase is where a hand is.
type Phase uint8

// The phases of a hand, in order.
const (
	PhaseOrderDraw Phase = iota + 1 // players draw for the order of play (turkish-rummy)
	PhaseRollStack                  // the first die: which stack takes the spare
	PhaseRollTile                   // the second die: which tile is the face-up one
	PhaseIndicator                  // the indicator candidate must be opened to all
	PhasePlay
	PhaseOver
)

var phaseNames = [...]string{"", "order-draw", "roll-stack", "roll-tile", "indicator", "play", "over"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) && p != 0 {
		return phaseNames[p]
	}
	return fmt.Sprintf("Phase(%d)", p)
}

// Rule errors. Every error Apply returns wraps one of these, so a caller can
// say which rule a move broke.
var (
	ErrPhase      = sentinel("not allowed in this phase")
	ErrTurn       = sentinel("not this player's turn")
	ErrNotHeld    = sentinel("tile not in the player's rack")
	ErrMustDraw   = sentinel("must draw or take a discard first")
	ErrDrawn      = sentinel("already drew this turn")
	ErrEmptyStock = sentinel("the stock is empty")
	ErrStockLeft  = sentinel("the stock is not empty")
	ErrNoDiscard  = sentinel("no discard to take")
	ErrFace       = sentinel("revealed face is inconsistent")
	ErrShow       = sentinel("gösterme not allowed")
	ErrNotWinning = sentinel("hand is not a winning hand")
	ErrBadAction  = sentinel("malformed action")
)

// HandResult is how a hand ended.
type HandResult struct {
	Winner      int // seat, or -1 when the stock ran out
	Kind        HandKind
	OkeyDiscard bool
	OneColour   Colour // the colour of a one-colour win, or NumColours
	Groups      []Group
	Shown       []int // seats that made gösterme, in order
	// Upcard is the seat dealt the indicator's twin, known once the hand's
	// audit has revealed every dealt rack (Match.Settle), for rulesets with
	// an upcard bonus; -1 otherwise.
	Upcard int
}

// Hand is the public state of one hand: every peer holds an identical copy
// and applies the same actions in the same order.
type Hand struct {
	board
	seats []int // the seats dealt in, in seat order (all seats unless some left)
	phase Phase

	dice       []int
	sel        int     // selected stack (0-based) after the first roll
	groups     [][]int // order draw: seats ranked so far, tied seats grouped
	orderSlots []SlotFace

	dealt  [][]Slot // the racks as dealt, when play began
	middle Slot     // a winner's final discard

	hasDrawn  []bool
	shown     []bool
	showOrder []int
	result    *HandResult
}

// NewHand starts a hand. seats lists the seats dealt in (in seat order; a
// subset of 0..n-1 when players have left), dealer is one of them. Turns go
// from a seat to the next seat in the list (the player to its right).
func NewHand(r Ruleset, n int, seats []int, dealer int) (*Hand, error) {
	if err := r.CheckPlayers(len(seats)); err != nil && !(r.LeaveAtZero && len(seats) >= 2) {
		return nil, err
	}
	di := -1
	for i, s := range seats {
		if s < 0 || s >= n || (i > 0 && s <= seats[i-1]) {
			return nil, errorf(ErrBadAction, "bad seat list %v", seats)
		}
		if s == dealer {
			di = i
		}
	}
	if di < 0 {
		return nil, errorf(ErrBadAction, "dealer %d not in %v", dealer, seats)
	}
	h := &Hand{board: newBoard(r, n, dealer), seats: append([]int(nil), seats...), middle: NoSlot,
		hasDrawn: make([]bool, n), shown: make([]bool, n)}
	k := len(seats)
	for i := 1; i <= k; i++ {
		h.order = append(h.order, seats[(di+i)%k])
	}
	switch r.Deal {
	case DealStacks, DealGerman:
		h.phase = PhaseRollStack
	case DealSimple:
		h.layoutLinear()
	case DealDrawOrder:
		h.phase = PhaseOrderDraw
		h.groups = [][]int{append([]int(nil), seats...)}
		if err := h.setOrderPending(); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// Phase returns the hand's phase.
func (h *Hand) Phase() Phase { return h.phase }

// Dealt returns the slots dealt to seat, ascending (nil before play and for
// a seat not dealt in). The first player's extra tile is among them.
func (h *Hand) Dealt(seat int) []Slot {
	if h.dealt == nil {
		return nil
	}
	return append([]Slot(nil), h.dealt[seat]...)
}

// Turn returns the seat to play and whether it has drawn this turn.
// It returns -1 outside PhasePlay.
func (h *Hand) Turn() (seat int, drawn bool) {
	if h.phase != PhasePlay {
		return -1, false
	}
	return h.order[h.turn], h.drawn
}

// Shown reports whether a seat made gösterme this hand.
func (h *Hand) Shown(seat int) bool { return h.shown[seat] }

// CanShow reports whether seat may still make gösterme (before its first draw).
func (h *Hand) CanShow(seat int) bool {
	if h.phase != PhasePlay || h.rules.GostermePoints == 0 && h.rules.Scoring != Strokes {
		return false
	}
	s, _ := h.Turn()
	return s == seat && !h.hasDrawn[seat] && !h.shown[seat]
}

// Result returns the hand's result once it is over.
func (h *Hand) Result() (HandResult, bool) {
	if h.result == nil {
		return HandResult{}, false
	}
	return *h.result, true
}

// Dice returns the die values applied so far.
func (h *Hand) Dice() []int { return append([]int(nil), h.dice...) }

// Seats returns the seats dealt in.
func (h *Hand) Seats() []int { return append([]int(nil), h.seats...) }

// Need says what the hand waits for.
type Need struct {
	Kind  ActionKind // ActRoll, ActReveal, or 0 for a player's move (Seat), or 0 with Over
	Seat  int
	Slots []Slot
	Over  bool
}

// Need returns what the hand waits for next.
func (h *Hand) Need() Need {
	switch h.phase {
	case PhaseRollStack, PhaseRollTile:
		return Need{Kind: ActRoll, Seat: h.dealer}
	case PhaseIndicator, PhaseOrderDraw:
		return Need{Kind: ActReveal, Seat: -1, Slots: h.Pending()}
	case PhasePlay:
		return Need{Seat: h.order[h.turn]}
	default:
		return Need{Seat: -1, Over: true}
	}
}

// handSizeOf returns how many tiles seat is dealt.
func (h *Hand) handSizeOf(seat int) int {
	if seat == h.order[0] {
		return h.rules.HandSize + 1
	}
	return h.rules.HandSize
}

// layoutLinear deals consecutive slots 0.. in order of play and makes the
// next slot the indicator candidate (DealSimple, DealDrawOrder).
func (h *Hand) layoutLinear() {
	var next int
	var skip [DeckSize]bool
	for _, sf := range h.orderSlots {
		skip[sf.Slot] = true
	}
	var seq []Slot
	for s := 0; s < DeckSize; s++ {
		if !skip[Slot(s)] {
			seq = append(seq, Slot(s))
		}
	}
	// The order-draw tiles go back to the bottom of the stock, face up.
	for _, sf := range h.orderSlots {
		seq = append(seq, sf.Slot)
	}
	for _, seat := range h.order {
		for k := 0; k < h.handSizeOf(seat); k++ {
			h.racks[seat] = append(h.racks[seat], seq[next])
			next++
		}
		sortSlots(h.racks[seat])
	}
	h.stock = seq[next:]
	h.phase = PhaseIndicator
	h.pending = []Slot{h.stock[0]}
}

// layoutStacks deals from the 21 stacks (DealStacks, DealGerman). Slots
// 5s..5s+4 are stack s bottom to top, slot 105 the spare; sel is the stack
// that took the spare, ind the face-up tile.
func (h *Hand) layoutStacks() {
	var seq []Slot
	for k := 1; k <= 20; k++ {
		s := (h.sel + k) % 21
		for t := 4; t >= 0; t-- {
			seq = append(seq, Slot(5*s+t))
		}
	}
	six := append(stackSlots(h.sel), Slot(DeckSize-1))
	for t := 5; t >= 0; t-- {
		if six[t] != h.indicator {
			seq = append(seq, six[t])
		}
	}
	k := len(h.order)
	next := 0
	take := func(seat, c int) {
		h.racks[seat] = append(h.racks[seat], seq[next:next+c]...)
		next += c
	}
	if h.rules.Deal == DealStacks {
		for round := 0; round < 2; round++ {
			for _, seat := range h.order {
				take(seat, 5)
			}
		}
		take(h.order[0], 5)
		for _, seat := range h.order[1:] {
			take(seat, 4)
		}
	} else {
		// German: player i gets stacks i and i+k, then 4 (first) or 3 tiles.
		for i, seat := range h.order {
			h.racks[seat] = append(h.racks[seat], seq[5*i:5*i+5]...)
			h.racks[seat] = append(h.racks[seat], seq[5*(i+k):5*(i+k)+5]...)
		}
		next = 10 * k
		take(h.order[0], 4)
		for _, seat := range h.order[1:] {
			take(seat, 3)
		}
	}
	for _, seat := range h.order {
		sortSlots(h.racks[seat])
	}
	h.stock = seq[next:]
	if h.rules.IndicatorLast {
		h.stock = append(h.stock, h.indicator)
	}
}

func stackSlots(s int) []Slot {
	return []Slot{Slot(5 * s), Slot(5*s + 1), Slot(5*s + 2), Slot(5*s + 3), Slot(5*s + 4)}
}

func sortSlots(s []Slot) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func removeSlot(s []Slot, x Slot) ([]Slot, bool) {
	for i, y := range s {
		if y == x {
			return append(s[:i:i], s[i+1:]...), true
		}
	}
	return s, false
}

// Apply applies one action. On error the hand is unchanged and the error
// wraps the rule broken.
func (h *Hand) Apply(a Action) error {
	c := h.clone()
	if err := c.apply(a); err != nil {
		return err
	}
	*h = *c
	return nil
}

// Clone returns a deep copy of the hand: a player may play a copy forward
// (a bot's rollouts) without touching the shared one. Like the hand, the
// copy holds no face that was not opened.
func (h *Hand) Clone() *Hand { return h.clone() }

func (h *Hand) clone() *Hand {
	c := *h
	c.board = h.board.clone()
	c.seats = append([]int(nil), h.seats...)
	c.dice = append([]int(nil), h.dice...)
	c.groups = make([][]int, len(h.groups))
	for i, g := range h.groups {
		c.groups[i] = append([]int(nil), g...)
	}
	c.orderSlots = append([]SlotFace(nil), h.orderSlots...)
	if h.dealt != nil {
		c.dealt = make([][]Slot, len(h.dealt))
		for i := range h.dealt {
			c.dealt[i] = append([]Slot(nil), h.dealt[i]...)
		}
	}
	c.hasDrawn = append([]bool(nil), h.hasDrawn...)
	c.shown = append([]bool(nil), h.shown...)
	c.showOrder = append([]int(nil), h.showOrder...)
	if h.result != nil {
		r := *h.result
		c.result = &r
	}
	return &c
}

func (h *Hand) apply(a Action) error {
	switch a.Kind {
	case ActRoll:
		return h.applyRoll(a)
	case ActReveal:
		return h.applyReveal(a)
	case ActDraw, ActTake, ActDiscard, ActShow, ActWin, ActExhaust:
		if h.phase != PhasePlay {
			return errorf(ErrPhase, "%v in phase %v", a.Kind, h.phase)
		}
		if a.Seat != h.order[h.turn] {
			return errorf(ErrTurn, "seat %d, expected seat %d", a.Seat, h.order[h.turn])
		}
		switch a.Kind {
		case ActDraw:
			return h.applyDraw(a)
		case ActTake:
			return h.applyTake(a)
		case ActDiscard:
			return h.applyDiscard(a)
		case ActShow:
			return h.applyShow(a)
		case ActWin:
			return h.applyWin(a)
		default:
			return h.applyExhaust(a)
		}
	}
	return errorf(ErrBadAction, "unknown kind %d", a.Kind)
}

func (h *Hand) applyRoll(a Action) error {
	if a.Value < 1 || a.Value > 6 || len(a.Faces) != 0 {
		return errorf(ErrBadAction, "die value %d", a.Value)
	}
	switch h.phase {
	case PhaseRollStack:
		h.dice = append(h.dice, a.Value)
		h.sel = a.Value - 1
		h.phase = PhaseRollTile
	case PhaseRollTile:
		h.dice = append(h.dice, a.Value)
		six := append(stackSlots(h.sel), Slot(DeckSize-1))
		h.pending = []Slot{six[a.Value-1]}
		h.phase = PhaseIndicator
	default:
		return errorf(ErrPhase, "roll in phase %v", h.phase)
	}
	return nil
}

func (h *Hand) applyReveal(a Action) error {
	if h.phase != PhaseIndicator && h.phase != PhaseOrderDraw {
		return errorf(ErrPhase, "reveal in phase %v", h.phase)
	}
	if err := h.revealPending(a.Faces); err != nil {
		return err
	}
	if h.phase == PhaseOrderDraw {
		return h.orderDrawn(a.Faces)
	}
	f := a.Faces[0].Face
	if f == FalseJoker {
		// Not an indicator: roll the second die again, or turn up the next tile.
		switch h.rules.Deal {
		case DealStacks, DealGerman:
			h.phase = PhaseRollTile
			h.pending = nil
		default:
			return h.turnUpNext(a.Faces[0].Slot)
		}
		return nil
	}
	h.setIndicator(a.Faces[0].Slot)
	switch h.rules.Deal {
	case DealStacks, DealGerman:
		h.layoutStacks()
	default:
		h.stock, _ = removeSlot(h.stock, h.indicator)
		if h.rules.IndicatorLast {
			h.stock = append(h.stock, h.indicator)
		}
	}
	h.phase = PhasePlay
	h.turn = 0
	h.drawn = true // the first player holds one tile more and starts by discarding
	h.dealt = make([][]Slot, h.n)
	for s := range h.racks {
		h.dealt[s] = append([]Slot(nil), h.racks[s]...)
	}
	return nil
}

// orderDrawn ranks the order-draw tiles of the group being drawn: highest
// number first, a false joker lowest. Players who tie form a group that draws
// again (from the next slots up from the bottom) until every group is one seat.
func (h *Hand) orderDrawn(faces []SlotFace) error {
	rank := func(f Face) int {
		if f == FalseJoker {
			return 0
		}
		return f.Number()
	}
	h.orderSlots = append(h.orderSlots, faces...)
	gi := h.drawingGroup()
	g := h.groups[gi]
	// Split g by rank, descending; equal ranks keep seat order (deterministic).
	var split [][]int
	for r := 13; r >= 0; r-- {
		var sub []int
		for i, seat := range g {
			if rank(faces[i].Face) == r {
				sub = append(sub, seat)
			}
		}
		if len(sub) > 0 {
			split = append(split, sub)
		}
	}
	groups := append([][]int(nil), h.groups[:gi]...)
	groups = append(groups, split...)
	h.groups = append(groups, h.groups[gi+1:]...)
	if gi = h.drawingGroup(); gi >= 0 {
		return h.setOrderPending()
	}
	h.order = h.order[:0]
	for _, g := range h.groups {
		h.order = append(h.order, g[0])
	}
	h.groups = nil
	h.pending = nil
	h.layoutLinear()
	return nil
}

// drawingGroup returns the index of the first group of tied seats, or -1.
func (h *Hand) drawingGroup() int {
	for i, g := range h.groups {
		if len(g) > 1 {
			return i
		}
	}
	return -1
}

func (h *Hand) setOrderPending() error {
	g := h.groups[h.drawingGroup()]
	used := len(h.orderSlots)
	if used+len(g) > DeckSize-60 {
		return errorf(ErrEmptyStock, "order draw ran out of tiles")
	}
	h.pending = h.pending[:0]
	for i := range g {
		h.pending = append(h.pending, Slot(DeckSize-1-used-i))
	}
	return nil
}

func (h *Hand) applyDraw(a Action) error {
	seat := a.Seat
	if h.drawn {
		return errorf(ErrDrawn, "seat %d", seat)
	}
	if len(a.Faces) != 0 || a.Slot != 0 && a.Slot != NoSlot {
		return errorf(ErrBadAction, "a draw opens nothing to all")
	}
	if err := h.draw(seat); err != nil {
		return err
	}
	h.hasDrawn[seat] = true
	return nil
}

func (h *Hand) applyTake(a Action) error {
	seat := a.Seat
	if h.drawn {
		return errorf(ErrDrawn, "seat %d", seat)
	}
	if len(a.Faces) != 0 {
		return errorf(ErrBadAction, "a take opens nothing new")
	}
	if _, _, err := h.take(seat); err != nil {
		return err
	}
	h.hasDrawn[seat] = true
	return nil
}

// faceOf checks that an action opens exactly slot s and returns its face.
func (h *Hand) faceOf(a Action, s Slot) (Face, error) {
	if len(a.Faces) != 1 || a.Faces[0].Slot != s {
		return NoFace, errorf(ErrBadAction, "%v must open exactly its tile", a.Kind)
	}
	return a.Faces[0].Face, nil
}

func (h *Hand) applyDiscard(a Action) error {
	seat := a.Seat
	if !h.drawn {
		return errorf(ErrMustDraw, "seat %d", seat)
	}
	rack, ok := removeSlot(h.racks[seat], a.Slot)
	if !ok {
		return errorf(ErrNotHeld, "seat %d slot %d", seat, a.Slot)
	}
	if _, err := h.faceOf(a, a.Slot); err != nil {
		return err
	}
	if err := h.setPublic(a.Faces[0]); err != nil {
		return err
	}
	h.discard(seat, rack, a.Slot)
	h.pass()
	return nil
}

func (h *Hand) applyShow(a Action) error {
	seat := a.Seat
	if !h.CanShow(seat) {
		return errorf(ErrShow, "seat %d has drawn already or has shown", seat)
	}
	if !contains(h.racks[seat], a.Slot) {
		return errorf(ErrNotHeld, "seat %d slot %d", seat, a.Slot)
	}
	f, err := h.faceOf(a, a.Slot)
	if err != nil {
		return err
	}
	if f != h.public[h.indicator] {
		return errorf(ErrShow, "%v does not match the face-up %v", f, h.public[h.indicator])
	}
	if err := h.setPublic(a.Faces[0]); err != nil {
		return err
	}
	h.shown[seat] = true
	h.showOrder = append(h.showOrder, seat)
	return nil
}

func (h *Hand) applyWin(a Action) error {
	seat := a.Seat
	if !h.drawn {
		return errorf(ErrMustDraw, "seat %d", seat)
	}
	rack := h.racks[seat]
	keep := rack
	if a.Slot != NoSlot {
		var ok bool
		if keep, ok = removeSlot(rack, a.Slot); !ok {
			return errorf(ErrNotHeld, "seat %d slot %d", seat, a.Slot)
		}
	} else if !h.rules.PairsNoDiscard {
		return errorf(ErrBadAction, "a win needs a final discard")
	}
	if len(a.Faces) != len(rack) {
		return errorf(ErrBadAction, "a win opens all %d tiles, got %d", len(rack), len(a.Faces))
	}
	faces := make([]Face, 0, len(keep))
	var discard Face = NoFace
	for i, sf := range a.Faces {
		if sf.Slot != rack[i] {
			return errorf(ErrBadAction, "win opens slot %d, expected %d", sf.Slot, rack[i])
		}
		if err := h.setPublic(sf); err != nil {
			return err
		}
		if sf.Slot == a.Slot {
			discard = sf.Face
		} else {
			faces = append(faces, sf.Face)
		}
	}
	res := HandResult{Winner: seat, OneColour: NumColours, Upcard: -1}
	if a.Slot == NoSlot {
		arr, ok := WinningArrangement(h.okey, faces)
		if !ok || arr.Kind != Pairs {
			return errorf(ErrNotWinning, "only seven pairs wins without a discard")
		}
		res.Kind, res.Groups = arr.Kind, arr.Groups
	} else {
		arr, ok := winningGroups(h.okey, faces)
		if !ok {
			return errorf(ErrNotWinning, "seat %d", seat)
		}
		res.Kind, res.Groups = arr.Kind, arr.Groups
		res.OkeyDiscard = discard == h.okey
	}
	res.OneColour = oneColour(h.okey, faces)
	res.Shown = append([]int(nil), h.showOrder...)
	h.racks[seat] = keep
	h.middle = a.Slot
	h.phase = PhaseOver
	h.result = &res
	return nil
}

// winningGroups checks a hand of HandSize tiles: 14 tiles may win with groups
// or pairs (pairs preferred), any other count (german 13) with groups only.
func winningGroups(okey Face, faces []Face) (Arrangement, bool) {
	if len(faces) == 14 {
		return WinningArrangement(okey, faces)
	}
	groups, rest := Arrange(okey, faces, false)
	if len(rest) != 0 {
		return Arrangement{}, false
	}
	return Arrangement{Kind: Groups, Groups: groups}, true
}

// oneColour returns the colour of a hand whose numbered tiles (okeys aside,
// false jokers as the okey's face) are all one colour, or NumColours.
func oneColour(okey Face, faces []Face) Colour {
	c := Colour(NumColours)
	for _, f := range faces {
		if f == okey {
			continue
		}
		if f == FalseJoker {
			f = okey
		}
		if c == NumColours {
			c = f.Colour()
		} else if f.Colour() != c {
			return NumColours
		}
	}
	return c
}

func (h *Hand) applyExhaust(a Action) error {
	if h.drawn {
		return errorf(ErrDrawn, "seat %d", a.Seat)
	}
	if len(h.stock) != 0 {
		return errorf(ErrStockLeft, "%d tiles left", len(h.stock))
	}
	if len(a.Faces) != 0 {
		return errorf(ErrBadAction, "exhaust opens nothing")
	}
	h.phase = PhaseOver
	h.result = &HandResult{Winner: -1, OneColour: NumColours, Shown: append([]int(nil), h.showOrder...), Upcard: -1}
	return nil
}

func insertSlot(s []Slot, x Slot) []Slot {
	s = append(s, x)
	sortSlots(s)
	return s
}

func contains(s []Slot, x Slot) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}
