package deck

import "testing"

// TestDecodeOrderRekey checks that a re-key message with several bad
// encodings is blamed for the one that decoding entry by entry, field by
// field (B_ij, E_i[j], R1, R2, s), meets first, whatever the points
// decoded side by side (group.DecodeEach).
func TestDecodeOrderRekey(t *testing.T) {
	tab := newTable(t, 3, "shared")
	h, msg := tab.states[3+1], tab.rekeys[1]
	rnd := newFixedRand("v")
	zero := func(b []byte, off int) { copy(b[off:off+32], make([]byte, 32)) }
	high := func(b []byte, off int) { b[off+31] |= 0x80 }
	for _, c := range []struct {
		name string
		f    func([]byte)
		rule error
		pos  int
	}{
		{"scalar before a later point", func(b []byte) {
			b[rekeyEntry(6)+RekeyEntrySize-1] = 0xff
			zero(b, rekeyEntry(7))
		}, ErrEncoding, 6},
		{"point before a later scalar", func(b []byte) {
			zero(b, rekeyEntry(6)+96)
			b[rekeyEntry(7)+RekeyEntrySize-1] = 0xff
		}, ErrIdentity, 6},
		{"E before R1 in one entry", func(b []byte) {
			zero(b, rekeyEntry(30)+32)
			high(b, rekeyEntry(30)+64)
		}, ErrIdentity, 30},
		{"R1 before R2", func(b []byte) {
			high(b, rekeyEntry(31)+64)
			zero(b, rekeyEntry(31)+96)
		}, ErrEncoding, 31},
		{"B before E", func(b []byte) {
			high(b, rekeyEntry(99))
			zero(b, rekeyEntry(99)+32)
		}, ErrEncoding, 99},
		{"R2 of the last entry", func(b []byte) { zero(b, rekeyEntry(105)+96) }, ErrIdentity, 105},
		{"lowest of far apart", func(b []byte) {
			zero(b, rekeyEntry(104))
			high(b, rekeyEntry(2)+96)
		}, ErrEncoding, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := h.ApplyRekey(1, mutate(msg, c.f), rnd)
			wantFault(t, err, c.rule, 1, c.pos)
		})
	}
}

// TestDecodeOrderLock: the lowest bad deck point of a lock message, each
// position of a decoding chunk.
func TestDecodeOrderLock(t *testing.T) {
	tab := newTable(t, 3, "shared")
	h, msg := tab.states[1], tab.locks[1]
	for _, k := range []int{0, 1, 7, 8, 9, 52, 53, 54, 104, 105} {
		_, err := h.ApplyLock(1, mutate(msg, func(b []byte) {
			b[lockOf(k)+31] |= 0x80
			if k+1 < DeckSize {
				copy(b[lockOf(k+1):lockOf(k+1)+32], make([]byte, 32))
			}
		}))
		wantFault(t, err, ErrEncoding, 1, k)
	}
}

// TestNewHandTilePoints: the hand's tile points, derived side by side,
// are TilePoint's, one by one.
func TestNewHandTilePoints(t *testing.T) {
	for _, c := range []struct {
		session string
		hand    uint32
	}{{"s", 0}, {"another session", 7}, {"x", 1 << 31}} {
		h, err := NewHand([]byte(c.session), c.hand, 4)
		if err != nil {
			t.Fatal(err)
		}
		for j := 0; j < DeckSize; j++ {
			want, err := TilePoint([]byte(c.session), c.hand, j)
			if err != nil {
				t.Fatal(err)
			}
			if !h.TilePoint(j).Equal(want) {
				t.Fatalf("%q hand %d: tile %d differs", c.session, c.hand, j)
			}
		}
	}
}
