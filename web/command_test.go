package web

import (
	"encoding/json"
	"testing"
)

// FuzzCommand: whatever a page sends, the model neither panics nor moves
// without a request (no match here: every move is refused).
func FuzzCommand(f *testing.F) {
	for _, s := range []string{`{"op":"draw"}`, `{"op":"discard","slot":-1}`, `{"op":"move","slot":3,"to":29}`,
		`{"op":"lift","slot":99}`, `{"op":"cursor","slot":-5}`, `{"op":"hint"}`, `{"op":"sets"}`, `{"op":"undo"}`,
		`{"op":"close"}`, `{"op":"win","slot":-2}`, `{"op":"putback"}`, `{"op":"pairs"}`, `[]`, `{"op":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g := NewGame(0)
		var c command
		if json.Unmarshal(b, &c) != nil || c.Op == "leave" {
			return
		}
		g.apply(c)
		g.build()
		if g.m.Sent != 0 {
			t.Fatalf("%s sent a move", b)
		}
	})
}
