package deck

import (
	"testing"
)

// TestReviewLockReplayAcrossTableSizes: the tile points D_{-1} depend only
// on the session and the hand, so seat 0's lock message for a 2-seat hand
// is a true statement for seat 0 of a 3-seat hand with the same session and
// hand number. Only u32(n) in the lock context (protocol.md 4, "Lock and
// shuffle") tells them apart: the replayed message must be refused with the
// sender named. (The session is also required to bind the seating; this
// test checks the proof's own binding, the second line.)
func TestReviewLockReplayAcrossTableSizes(t *testing.T) {
	two, err := NewHand(testSession, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	three, err := NewHand(testSession, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	for j := 0; j < DeckSize; j++ {
		if !two.TilePoint(j).Equal(three.TilePoint(j)) {
			t.Fatalf("tile point %d differs between table sizes: the replay below would not be a true statement", j)
		}
	}
	s, err := NewSecret(testSession, 4, 2, 0, newFixedRand("review-replay"))
	if err != nil {
		t.Fatal(err)
	}
	msg, _, err := two.Lock(s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := two.ApplyLock(0, msg); err != nil {
		t.Fatalf("honest lock refused at its own table: %v", err)
	}
	_, err = three.ApplyLock(0, msg)
	wantFault(t, err, ErrShuffleProof, 0, -1)
}
