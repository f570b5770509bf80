package invite

import (
	"testing"
)

// TestTournamentProof: the vector of protocol.md 9.8 (7.10's secret, the
// tournament id bytes 0x40..0x5f, the creator's and player's keys bytes
// 0x01.. and 0x02.. repeated, the registration hash bytes 0xa0..0xbf), and
// a proof that admits no other tournament, creator, key or registration,
// and is none of 7.10's proofs.
func TestTournamentProof(t *testing.T) {
	s := secretN(0)
	var tid, creator, player, reg [32]byte
	for i := range tid {
		tid[i], creator[i], player[i], reg[i] = byte(0x40+i), 1, 2, byte(0xa0+i)
	}
	p := s.TournamentProof(tid, creator, player, reg)
	t.Logf("tournament proof %s", p)
	const want = "20e21b7adbb6c2747e76d3bc7bfd37ff360b6b70d8ce903b42286a4366f81439"
	if p.String() != want {
		t.Fatalf("tournament proof %s, want %s", p, want)
	}
	if !s.CheckTournament(p, tid, creator, player, reg) {
		t.Fatal("own proof refused")
	}
	flip := func(b [32]byte) [32]byte { b[31] ^= 1; return b }
	for name, ok := range map[string]bool{
		"other secret":       secretN(1).CheckTournament(p, tid, creator, player, reg),
		"other tournament":   s.CheckTournament(p, flip(tid), creator, player, reg),
		"other creator":      s.CheckTournament(p, tid, flip(creator), player, reg),
		"other player":       s.CheckTournament(p, tid, creator, flip(player), reg),
		"other registration": s.CheckTournament(p, tid, creator, player, flip(reg)),
		"zero secret":        Secret{}.CheckTournament(Secret{}.TournamentProof(tid, creator, player, reg), tid, creator, player, reg),
	} {
		if ok {
			t.Errorf("%s: proof accepted", name)
		}
	}
	id := "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
	if s.Check(p, id, creator[:], player[:], reg) || s.CheckSpectator(p, id, creator[:], player[:]) {
		t.Fatal("a tournament proof is a table's join or spectator proof")
	}
}
