package table

import (
	"bytes"
	"testing"

	"github.com/okey-game/okey/engine"
)

// FuzzDecodeBodies: the body decoders never panic, and what decodes
// re-encodes to the same bytes (one encoding per message).
func FuzzDecodeBodies(f *testing.F) {
	f.Add(make([]byte, 64))
	f.Add(moveBody{Action: engine.ActDraw, Slot: engine.NoSlot}.encode())
	f.Add(moveBody{Action: engine.ActDiscard, Slot: 7, Shares: []byte{1, 7, 1, 2}}.encode())
	f.Add(moveBody{Action: engine.ActWin, Slot: engine.NoSlot, Shares: []byte{1}}.encode())
	f.Add(encodeShuffle(make([]byte, 32), []byte{1, 2, 3}))
	f.Fuzz(func(t *testing.T, p []byte) {
		if h, err := decodeHello(p); err == nil && !bytes.Equal(h.encode(), p) {
			t.Fatal("hello does not re-encode to itself")
		}
		if c, l, err := decodeShuffle(p); err == nil && !bytes.Equal(encodeShuffle(c, l), p) {
			t.Fatal("shuffle does not re-encode to itself")
		}
		if o, r, err := decodeRekey(p); err == nil && !bytes.Equal(encodeRekey(o, r), p) {
			t.Fatal("rekey does not re-encode to itself")
		}
		if m, err := decodeMove(p); err == nil {
			if !bytes.Equal(m.encode(), p) {
				t.Fatal("move does not re-encode to itself")
			}
			if m.Slot != engine.NoSlot && int(m.Slot) >= engine.DeckSize {
				t.Fatalf("move names slot %d", m.Slot)
			}
		}
	})
}

// FuzzConfig: a config decodes only when valid, and then re-encodes to the
// same bytes (its hash is well defined).
func FuzzConfig(f *testing.F) {
	for _, n := range []int{2, 4} {
		cfg, _, _ := LocalConfig("classic:points=4", n, uint64(n))
		b, _ := cfg.MarshalBinary()
		f.Add(b)
	}
	f.Add([]byte("okey/config/v2"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var c Config
		if err := c.UnmarshalBinary(b); err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("decoded an invalid config: %v", err)
		}
		out, err := c.MarshalBinary()
		if err != nil || !bytes.Equal(out, b) {
			t.Fatal("config does not re-encode to itself")
		}
	})
}
