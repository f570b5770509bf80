package table

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/okey-game/okey/crypto/deck"
	"github.com/okey-game/okey/internal/lane"
)

// reportSummary is everything a verdict says, as text: status, the seat,
// rule, step, error and evidence of a violation, the error of an invalid
// file, where an unfinished chain stops, the hands and the ranking.
func reportSummary(r *Report) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "status=%v steps=%d hands=%d ranking=%v next=%+v torn=%v failure=%+v invalid=%v\n",
		r.Status(), r.Steps, len(r.Hands), r.Ranking, r.Next, r.Torn, r.Failure, r.Invalid)
	for _, h := range r.Hands {
		fmt.Fprintf(&b, "hand %d scores=%v tiles=%v\n", h.Hand, h.Scores, h.Tiles)
	}
	if v := r.Violation; v != nil {
		fmt.Fprintf(&b, "violation %s\n", v.Error())
		for _, e := range v.Evidence {
			fmt.Fprintf(&b, "evidence %x\n", e)
		}
	}
	return b.String()
}

// TestVerifyBatchSameVerdict: Verify, which checks the proofs, shares and
// audits of a transcript in one batch, gives exactly the report of the
// replay that checks each as its message is applied, on an honest match and
// on matches where a seat cheats with a proof, a share or its shuffle; and
// where something in the batch is bad, the batched replay declines (nil) so
// that the one-by-one replay decides.
func TestVerifyBatchSameVerdict(t *testing.T) {
	lane.NoRace(t) // seven matches and their verifies; verify runs under the race detector in every raced match (checkHonest)
	cases := []struct {
		name   string
		o      LocalOptions
		caught bool // the batch itself fails (a bad proof or share in the chain)
	}{
		{"honest", LocalOptions{}, false},
		// Live peers refuse these: the bad message is evidence, judged by
		// a machine that checks one by one; the chain's batch passes.
		{"bad re-key proof", LocalOptions{Cheat: CheatBadProof, Cheater: 1}, false},
		{"bad key share", LocalOptions{Cheat: CheatBadKey, Cheater: 2}, false},
		{"junk shuffle", LocalOptions{Cheat: CheatJunkShuffle, Cheater: 1}, false},
		// Peers that skip the shuffle proofs (a test mode) accept the junk
		// lock into the chain: the batch fails, bisection or not, and the
		// one-by-one replay names the seat at its lock.
		{"junk shuffle in the chain", LocalOptions{Cheat: CheatJunkShuffle, Cheater: 1, noLockProofs: true}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, "turkish-rummy:rounds=1", 3, 7, c.o)
			tr := res.Transcript(-1)
			envs := decodeAndVerify(tr)
			strict := verifyReplay(tr, envs, nil)
			got := Verify(tr)
			if reportSummary(got) != reportSummary(strict) {
				t.Fatalf("batched verdict differs from the one-by-one one:\n%s\nwant\n%s", reportSummary(got), reportSummary(strict))
			}
			if c.o.Cheat != "" && got.Violation == nil {
				t.Fatalf("cheat %s not named: %s", c.o.Cheat, reportSummary(got))
			}
			if c.o.Cheat == "" && !got.Honest {
				t.Fatalf("honest match not honest: %s", reportSummary(got))
			}
			pb := mustProofBatch(t)
			batched := verifyReplay(tr, envs, pb)
			if c.caught != (batched == nil) {
				t.Fatalf("batch caught the fault: %v, want %v", batched == nil, c.caught)
			}
			// The public openings of a hand whose audit the chain holds
			// are claims in the batch (deck.HintTiles), not computed.
			if c.o.Cheat == "" && pb.Openings() == 0 {
				t.Fatal("no opening was hinted: the replay computed every one")
			}
			// Every hand's points of known value are checked against
			// their values from the seeds (deck.ProofBatch.Known).
			if c.o.Cheat == "" && pb.Known() == 0 {
				t.Fatal("no point was checked against its value from the revealed seeds")
			}
		})
	}
}

func mustProofBatch(t *testing.T) *deck.ProofBatch {
	t.Helper()
	pb, err := deck.NewProofBatch(nil)
	if err != nil {
		t.Fatal(err)
	}
	return pb
}

// TestDecodeAndVerifyRemembers: the signatures decodeAndVerify checks in
// batches are remembered exactly where Envelope.Verify accepts them: every
// record of an honest chain, not one whose signature or body was changed.
func TestDecodeAndVerifyRemembers(t *testing.T) {
	res := run(t, "turkish-rummy:rounds=1", 3, 7, LocalOptions{})
	tr := res.Transcript(-1)
	if len(tr.Chain) <= sigBatch {
		t.Fatalf("%d records: the chain does not fill a batch", len(tr.Chain))
	}
	chain := make([][]byte, len(tr.Chain))
	copy(chain, tr.Chain)
	bad := map[int]bool{}
	for i := 3; i < len(chain); i += 37 {
		b := append([]byte(nil), chain[i]...)
		b[len(b)-1-i%70] ^= 1 // a signature byte, or the body's last bytes
		chain[i] = b
		bad[i] = true
	}
	tampered := *tr
	tampered.Chain = chain
	envs := decodeAndVerify(&tampered)
	cfgHash := tr.Config.Hash()
	for i, env := range envs {
		if env == nil {
			t.Fatalf("record %d does not decode", i)
		}
		remembered := env.verified != nil
		if remembered == bad[i] {
			t.Fatalf("record %d (changed: %v): remembered %v", i, bad[i], remembered)
		}
		want := env.Verify(tr.Config.Seats[env.Seat].Key, cfgHash) == nil
		if want == bad[i] {
			t.Fatalf("record %d (changed: %v): Envelope.Verify accepts %v", i, bad[i], want)
		}
	}
}
