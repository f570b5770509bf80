package tournament

import (
	"crypto/sha256"
	"encoding/binary"
)

// Labels of the draw's hashes (protocol.md 9.4).
const (
	LabelCommit  = "okey/tournament/v1/draw-commit"
	LabelCommits = "okey/tournament/v1/draw-commits"
	LabelSeed    = "okey/tournament/v1/draw-seed"
	LabelStream  = "okey/tournament/v1/draw-stream"
	LabelTable   = "okey/tournament/v1/table"
)

// Commitment is a player's commitment to its opening for a round's draw
// attempt: SHA-256(LabelCommit || tournament id || u8 round || u8 attempt
// || key || opening).
func Commitment(tid [32]byte, round, attempt int, key, opening [32]byte) [32]byte {
	b := append([]byte(LabelCommit), tid[:]...)
	b = append(b, byte(round), byte(attempt))
	b = append(b, key[:]...)
	b = append(b, opening[:]...)
	return sha256.Sum256(b)
}

// CommitsHash is what a reveal cites: SHA-256(LabelCommits || tournament
// id || u8 round || u8 attempt || the commitments of the attempt's players
// in roster order).
func CommitsHash(tid [32]byte, round, attempt int, commitments [][32]byte) [32]byte {
	b := append([]byte(LabelCommits), tid[:]...)
	b = append(b, byte(round), byte(attempt))
	for _, c := range commitments {
		b = append(b, c[:]...)
	}
	return sha256.Sum256(b)
}

// Seed is the draw seed of a round's attempt: SHA-256(LabelSeed ||
// tournament id || u8 round || u8 attempt || the openings of the attempt's
// players in roster order). Only the players' openings enter it.
func Seed(tid [32]byte, round, attempt int, openings [][32]byte) [32]byte {
	b := append([]byte(LabelSeed), tid[:]...)
	b = append(b, byte(round), byte(attempt))
	for _, o := range openings {
		b = append(b, o[:]...)
	}
	return sha256.Sum256(b)
}

// stream yields uniform integers from a seed: the k-th 64-bit word is the
// first 8 bytes (big-endian) of SHA-256(LabelStream || seed || u32 k).
type stream struct {
	seed [32]byte
	k    uint32
}

func (s *stream) word() uint64 {
	b := append([]byte(LabelStream), s.seed[:]...)
	b = binary.BigEndian.AppendUint32(b, s.k)
	s.k++
	h := sha256.Sum256(b)
	return binary.BigEndian.Uint64(h[:8])
}

// uniform returns an integer in [0, n) for 1 <= n: words are drawn until
// one is below the largest multiple of n not above 2^64, and that word
// mod n is the value (no modulo bias).
func (s *stream) uniform(n uint64) uint64 {
	limit := -(-n % n) // 2^64 - (2^64 mod n), as uint64 (0 stands for 2^64)
	for {
		x := s.word()
		if limit == 0 || x < limit {
			return x % n
		}
	}
}

// Draw returns the round's draw: the order of the n roster players (their
// roster indices), by a Fisher-Yates shuffle of 0..n-1 driven by the
// seed's stream: for i from n-1 down to 1, j = uniform(i+1), swap i and j.
// Position 0 is the first of the draw.
func Draw(seed [32]byte, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	s := &stream{seed: seed}
	for i := n - 1; i >= 1; i-- {
		j := int(s.uniform(uint64(i + 1)))
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// TableID is the table id of a tournament table: the first 16 bytes of
// SHA-256(LabelTable || tournament id || u8 round || u8 table), table
// numbered from 0. It is the table config's id (protocol.md 5.1), so the
// config, which every seat signs under, points at the tournament and round.
func TableID(tid [32]byte, round, table int) [16]byte {
	b := append([]byte(LabelTable), tid[:]...)
	b = append(b, byte(round), byte(table))
	h := sha256.Sum256(b)
	var id [16]byte
	copy(id[:], h[:16])
	return id
}

// LabelSeatNonce derives a seat's nonce at a tournament table.
const LabelSeatNonce = "okey/tournament/v1/seat-nonce"

// SeatNonce is a player's nonce (protocol.md 5.1) at a tournament table:
// SHA-256(LabelSeatNonce || table id || the player's opening for the
// round). The opening is the player's own fresh random value, so the nonce
// is too; and every participant can compute the whole config from the
// records alone (9.3).
func SeatNonce(tableID [16]byte, opening [32]byte) [32]byte {
	b := append([]byte(LabelSeatNonce), tableID[:]...)
	b = append(b, opening[:]...)
	return sha256.Sum256(b)
}

// Seat is one seat of a tournament table's config.
type Seat struct {
	Key    [32]byte
	Name   string
	PeerID string
	Nonce  [32]byte
}

// Seating returns the config of round's table t (9.3) from a report whose
// round is drawn and tables formed: the table id, the ruleset and the
// seats in seat order; false when that table is not formed.
func (rep *Report) Seating(round, t int) (id [16]byte, ruleset string, seats []Seat, ok bool) {
	if round < 1 || round > len(rep.Rounds) {
		return id, "", nil, false
	}
	rd := rep.Rounds[round-1]
	if t < 0 || t >= len(rd.Tables) || rd.Openings == nil {
		return id, "", nil, false
	}
	tb := rd.Tables[t]
	for _, p := range tb.Seats {
		pl := rep.Players[p]
		seats = append(seats, Seat{Key: pl.Key, Name: pl.Name, PeerID: pl.PeerID, Nonce: SeatNonce(tb.ID, rd.Openings[p])})
	}
	return tb.ID, rep.Ruleset, seats, true
}
