package engine

import (
	"errors"
	"testing"
)

// TestBoardSetPublic: the one check every public face of either game goes
// through: a slot keeps its face, no face is on a third slot, a bad slot or
// face is a malformed action; a refusal changes nothing.
func TestBoardSetPublic(t *testing.T) {
	r5 := MustParseFaces("R5")[0]
	k5 := MustParseFaces("K5")[0]
	b := newBoard(MustRuleset("classic", ""), 4, 0)
	steps := []struct {
		sf   SlotFace
		want error
	}{
		{SlotFace{1, r5}, nil},
		{SlotFace{1, r5}, nil}, // the same face again
		{SlotFace{1, k5}, ErrFace},
		{SlotFace{2, r5}, nil},
		{SlotFace{3, r5}, ErrFace}, // a third R5
		{SlotFace{DeckSize, k5}, ErrBadAction},
		{SlotFace{4, NoFace}, ErrBadAction},
	}
	for i, st := range steps {
		before := b.public
		err := b.setPublic(st.sf)
		if !errors.Is(err, st.want) || (err == nil) != (st.want == nil) {
			t.Fatalf("step %d %v: %v, want %v", i, st.sf, err, st.want)
		}
		if err != nil && b.public != before {
			t.Fatalf("step %d: a refusal changed the public faces", i)
		}
	}
	if b.PublicFace(1) != r5 || b.PublicFace(2) != r5 || b.PublicFace(3) != NoFace {
		t.Fatalf("public faces %v %v %v", b.PublicFace(1), b.PublicFace(2), b.PublicFace(3))
	}
}

// TestBoardsInBothGames: a classic hand and a 101 round refuse a third copy
// of a face at their reveal through the same board.
func TestBoardsInBothGames(t *testing.T) {
	r5 := MustParseFaces("R5")[0]
	g, err := NewGame101(MustRuleset("101", ""), 2, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHand(MustRuleset("turkish-rummy", ""), 2, []int{0, 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []*board{&g.board, &h.board} {
		for _, s := range []Slot{100, 101} {
			if err := b.setPublic(SlotFace{s, r5}); err != nil {
				t.Fatal(err)
			}
		}
	}
	p := g.Pending()[0]
	if err := g.Apply(Action101{Kind: Act101Reveal, Seat: -1, Faces: []SlotFace{{p, r5}}}); !errors.Is(err, ErrFace) {
		t.Errorf("101: a third R5 at the reveal: %v", err)
	}
	hp := h.Pending()
	faces := make([]SlotFace, len(hp))
	for i, s := range hp {
		faces[i] = SlotFace{s, r5}
	}
	if err := h.Apply(Action{Kind: ActReveal, Faces: faces}); !errors.Is(err, ErrFace) {
		t.Errorf("classic: a third R5 at the reveal: %v", err)
	}
}
