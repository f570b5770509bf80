package engine

import "testing"

// TestSwapTakenBeforeOpening101: with swap-before-open, a player who has not
// opened and took the previous discard may not use that discard to take an
// okey off the table: the text says a player who has not opened must open
// with the discard taken. The swap is refused (ErrMustUse), the state
// unchanged; an opened player may swap the discard it took.
func TestSwapTakenBeforeOpening101(t *testing.T) {
	rg := newRig101(t, "101:swap-before-open", 2, 0, deal101{
		racks:     []string{"Y8 " + pairs5a, open128 + " B1 B2 Y2 B3 K1 K2 K3 R5 Y5 K5"},
		indicator: "Y1", bank: "Y9 Y7 Y6 Y5"})
	rg.ok(rg.discard(0, "Y8"))
	rg.ok(rg.draw(1))
	rg.ok(rg.lay(1, layOpen+" | B1 B2 Y2=B3"))
	rg.ok(rg.discard(1, "B3"))
	rg.ok(rg.take(0))
	_, _, taken := rg.g().Turn()
	sw := Action101{Kind: Act101Swap, Seat: 0, Meld: 3, Pos: 2, Faces: []SlotFace{{taken, rg.deck[taken]}}}
	rg.refused(sw, ErrMustUse)
	// It cannot open with the B3 (it holds five doubles and no B3 meld): it
	// gives the B3 back, draws and discards.
	rg.ok(rg.giveBack(0))
	rg.ok(rg.draw(0))
	rg.ok(rg.discard(0, "Y7"))
}

// TestSwapTakenAfterOpening101: an opened player who took the previous
// discard may use it to take an okey off the table.
func TestSwapTakenAfterOpening101(t *testing.T) {
	rg := newRig101(t, "101", 2, 0, deal101{
		racks:     []string{"B3 Y8 " + pairs5a, open128 + " B1 B2 Y2 K1 K2 K3 R5 Y5 K5 FJ"},
		indicator: "Y1", bank: "Y9 Y7 Y6 Y5"})
	rg.ok(rg.discard(0, "Y8"))
	rg.ok(rg.draw(1))
	rg.ok(rg.lay(1, layOpen+" | B1 B2 Y2=B3"))
	rg.ok(rg.discard(1, "Y9"))
	rg.ok(rg.draw(0))
	rg.ok(rg.lay(0, layPairA))
	rg.ok(rg.discard(0, "B3"))
	rg.ok(rg.take(1))
	_, _, taken := rg.g().Turn()
	rg.ok(Action101{Kind: Act101Swap, Seat: 1, Meld: 3, Pos: 2, Faces: []SlotFace{{taken, rg.deck[taken]}}})
	rg.ok(rg.discard(1, "K5"))
}
