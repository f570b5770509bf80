package table

import (
	"fmt"

	"github.com/okey-game/okey/crypto/commit"
	"github.com/okey-game/okey/engine"
)

// Body sizes and limits.
const (
	nonceSize = 32
	seedSize  = 32
)

// helloBody: config hash (32) || nonce (32).
type helloBody struct {
	ConfigHash [32]byte
	Nonce      [nonceSize]byte
}

func (b helloBody) encode() []byte {
	return append(append([]byte(nil), b.ConfigHash[:]...), b.Nonce[:]...)
}

func decodeHello(p []byte) (helloBody, error) {
	var b helloBody
	if len(p) != 64 {
		return b, fmt.Errorf("%w: hello body of %d bytes", ErrMalformed, len(p))
	}
	copy(b.ConfigHash[:], p[:32])
	copy(b.Nonce[:], p[32:])
	return b, nil
}

// shuffleBody: commitment (32) || the crypto lock message.
func encodeShuffle(commitment, lock []byte) []byte {
	return append(append([]byte(nil), commitment...), lock...)
}

func decodeShuffle(p []byte) (commitment, lock []byte, err error) {
	if len(p) < commit.CommitmentSize {
		return nil, nil, fmt.Errorf("%w: shuffle body of %d bytes", ErrMalformed, len(p))
	}
	return p[:commit.CommitmentSize], p[commit.CommitmentSize:], nil
}

// rekeyBody: opening (32) || the crypto re-key message.
func encodeRekey(opening, rekey []byte) []byte {
	return append(append([]byte(nil), opening...), rekey...)
}

func decodeRekey(p []byte) (opening, rekey []byte, err error) {
	if len(p) < commit.OpeningSize {
		return nil, nil, fmt.Errorf("%w: rekey body of %d bytes", ErrMalformed, len(p))
	}
	return p[:commit.OpeningSize], p[commit.OpeningSize:], nil
}

// moveBody: action (1) || slot (1) || shares (crypto share list, may be
// empty for moves that open nothing).
type moveBody struct {
	Action engine.ActionKind
	Slot   engine.Slot
	Shares []byte
}

func (b moveBody) encode() []byte {
	return append([]byte{byte(b.Action), byte(b.Slot)}, b.Shares...)
}

func decodeMove(p []byte) (moveBody, error) {
	if len(p) < 2 {
		return moveBody{}, fmt.Errorf("%w: move body of %d bytes", ErrMalformed, len(p))
	}
	b := moveBody{Action: engine.ActionKind(p[0]), Slot: engine.Slot(p[1]), Shares: p[2:]}
	switch b.Action {
	case engine.ActDraw, engine.ActTake, engine.ActExhaust:
		if b.Slot != engine.NoSlot || len(b.Shares) != 0 {
			return moveBody{}, fmt.Errorf("%w: %v carries no tile", ErrMalformed, b.Action)
		}
	case engine.ActDiscard, engine.ActShow:
		if int(b.Slot) >= engine.DeckSize || len(b.Shares) == 0 {
			return moveBody{}, fmt.Errorf("%w: %v needs a tile and its share", ErrMalformed, b.Action)
		}
	case engine.ActWin:
		if len(b.Shares) == 0 || b.Slot != engine.NoSlot && int(b.Slot) >= engine.DeckSize {
			return moveBody{}, fmt.Errorf("%w: win needs its rack's shares", ErrMalformed)
		}
	default:
		return moveBody{}, fmt.Errorf("%w: move action %d", ErrMalformed, p[0])
	}
	return b, nil
}
