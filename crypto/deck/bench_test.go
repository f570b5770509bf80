package deck

import (
	"bytes"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/dleq"
	"github.com/okey-game/okey/crypto/group"
)

// dealPositions returns each seat's deck positions (seat 0, the dealer, gets
// 15 tiles, the others 14) and the indicator's position.
func dealPositions(n int) ([][]int, int) {
	hands := make([][]int, n)
	pos := 0
	for s := 0; s < n; s++ {
		count := 14
		if s == 0 {
			count = 15
		}
		for k := 0; k < count; k++ {
			hands[s] = append(hands[s], pos)
			pos++
		}
	}
	return hands, pos
}

// deal runs one whole hand's cryptography for n players as a table would,
// each peer keeping its own state: every lock and re-key checked by every
// other peer (proofs batch-verified), every dealt tile opened by its holder
// (all shares checked), the indicator opened by everyone, and the audit run
// by every peer.
func deal(tb testing.TB, n int, rnd *fixedRand) {
	states := make([]*Hand, n)
	secrets := make([]*Secret, n)
	for i := range states {
		h, err := NewHand(testSession, 7, n)
		if err != nil {
			tb.Fatal(err)
		}
		states[i] = h
		if secrets[i], err = NewSecret(testSession, 7, n, i, rnd); err != nil {
			tb.Fatal(err)
		}
	}
	for i := 0; i < n; i++ {
		msg, own, err := states[i].Lock(secrets[i])
		if err != nil {
			tb.Fatal(err)
		}
		states[i] = own
		for p := 0; p < n; p++ {
			if p != i {
				if states[p], err = states[p].ApplyLock(i, msg); err != nil {
					tb.Fatal(err)
				}
			}
		}
	}
	for i := 0; i < n; i++ {
		msg, own, err := states[i].Rekey(secrets[i], rnd)
		if err != nil {
			tb.Fatal(err)
		}
		states[i] = own
		for p := 0; p < n; p++ {
			if p != i {
				if states[p], err = states[p].ApplyRekey(i, msg, rnd); err != nil {
					tb.Fatal(err)
				}
			}
		}
	}
	hands, indicator := dealPositions(n)
	// lists[i][p]: seat i's share list for holder p's positions.
	lists := make([][][]byte, n)
	for i := range lists {
		lists[i] = make([][]byte, n)
		for p := range lists[i] {
			if p == i {
				continue
			}
			b, err := states[i].Shares(secrets[i], hands[p])
			if err != nil {
				tb.Fatal(err)
			}
			lists[i][p] = b
		}
	}
	for p := 0; p < n; p++ {
		decoded := make([][]Share, n)
		for i := 0; i < n; i++ {
			if i == p {
				continue
			}
			l, err := DecodeShares(lists[i][p])
			if err != nil {
				tb.Fatal(err)
			}
			decoded[i] = l
		}
		for k, pos := range hands[p] {
			shares := make([][]byte, n)
			for i := 0; i < n; i++ {
				if i == p {
					own, err := states[p].Share(secrets[p], pos)
					if err != nil {
						tb.Fatal(err)
					}
					shares[i] = own
				} else {
					shares[i] = decoded[i][k].Key
				}
			}
			if _, err := states[p].Open(pos, shares); err != nil {
				tb.Fatal(err)
			}
		}
	}
	indShares := make([][]byte, n)
	for i := range indShares {
		b, err := states[i].Share(secrets[i], indicator)
		if err != nil {
			tb.Fatal(err)
		}
		indShares[i] = b
	}
	for p := 0; p < n; p++ {
		if _, err := states[p].Open(indicator, indShares); err != nil {
			tb.Fatal(err)
		}
	}
	seeds := make([][]byte, n)
	for i := range seeds {
		seeds[i] = secrets[i].Seed()
	}
	for p := 0; p < n; p++ {
		if _, err := states[p].Audit(seeds, rnd); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkDeal also reports its cost in units of one variable-base scalar
// multiplication measured in the same process just before and after:
//   - scalarmults/op: wall time per deal over wall time per multiplication;
//     with both cores free this is the target's measure, but a shared
//     machine makes it noisy;
//   - cpu-scalarmults/op: process CPU time per deal over CPU time per
//     multiplication: the work done, whatever else runs on the machine
//     (time stolen by other processes is not counted on either side).
func BenchmarkDeal(b *testing.B) {
	for _, n := range []int{2, 3, 4} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			rnd := newFixedRand("bench-deal")
			sm, smCPU := scalarMultTime()
			start, startCPU := time.Now(), cpuTime()
			iters := 0
			for b.Loop() {
				deal(b, n, rnd)
				iters++
			}
			per := time.Since(start) / time.Duration(iters)
			perCPU := (cpuTime() - startCPU) / time.Duration(iters)
			sm2, smCPU2 := scalarMultTime()
			sm, smCPU = (sm+sm2)/2, (smCPU+smCPU2)/2
			b.ReportMetric(float64(per)/float64(sm), "scalarmults/op")
			b.ReportMetric(float64(perCPU)/float64(smCPU), "cpu-scalarmults/op")
		})
	}
}

// scalarMultTime times one ristretto255 ScalarMult, averaged over 2000, in
// wall time and in process CPU time.
func scalarMultTime() (wall, cpu time.Duration) {
	s := uniformScalar(bytes.Repeat([]byte{7}, 64))
	p := ristretto255.NewGeneratorElement()
	var e ristretto255.Element
	start, startCPU := time.Now(), cpuTime()
	for i := 0; i < 2000; i++ {
		e.ScalarMult(s, p)
	}
	return time.Since(start) / 2000, (cpuTime() - startCPU) / 2000
}

// cpuTime is the process's CPU time (user and system, every thread).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// uniformScalar reduces 64 bytes to a scalar (it panics on another length).
func uniformScalar(b []byte) *ristretto255.Scalar {
	s, err := ristretto255.NewScalar().SetUniformBytes(b)
	if err != nil {
		panic(err)
	}
	return s
}

func BenchmarkScalarMult(b *testing.B) {
	s := uniformScalar(make([]byte, 64))
	s.Add(s, uniformScalar(append(make([]byte, 63), 7)))
	p := ristretto255.NewGeneratorElement()
	p.ScalarMult(s, p)
	var e ristretto255.Element
	for b.Loop() {
		e.ScalarMult(s, p)
	}
}

func BenchmarkLock(b *testing.B) {
	tab := newTable(b, 4, "bench")
	for b.Loop() {
		if _, _, err := detached(tab.states[1]).Lock(tab.secrets[1]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkApplyLock(b *testing.B) {
	tab := newTable(b, 4, "bench")
	for b.Loop() {
		if _, err := detached(tab.states[1]).ApplyLock(1, tab.locks[1]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRekey(b *testing.B) {
	tab := newTable(b, 4, "bench")
	rnd := newFixedRand("r")
	for b.Loop() {
		if _, _, err := detached(tab.states[5]).Rekey(tab.secrets[1], rnd); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyRekey is the receiver's side of one re-key message: decoding
// and batch-verifying 106 proofs.
func BenchmarkApplyRekey(b *testing.B) {
	tab := newTable(b, 4, "bench")
	rnd := newFixedRand("r")
	for b.Loop() {
		if _, err := detached(tab.states[5]).ApplyRekey(1, tab.rekeys[1], rnd); err != nil {
			b.Fatal(err)
		}
	}
}

func rekeyItems(b *testing.B, tab *table, seat int) []dleq.Item {
	h := tab.states[4+seat]
	in := h.rekeyInput(seat)
	items := make([]dleq.Item, DeckSize)
	msg := tab.rekeys[seat]
	for j := range items {
		e := msg[j*RekeyEntrySize:]
		bp, _ := group.DecodePoint(e[:32])
		ep, _ := group.DecodePoint(e[32:64])
		pr, err := dleq.DecodeProof(e[64:RekeyEntrySize])
		if err != nil {
			b.Fatal(err)
		}
		items[j] = dleq.Item{
			Context:   RekeyContext(h.session, h.hand, seat, j),
			Statement: &dleq.Statement{G1: &h.locks[seat].key, H1: bp, G2: &in[j], H2: ep},
			Proof:     pr,
		}
	}
	return items
}

// BenchmarkVerifyProof verifies one re-key proof on its own.
func BenchmarkVerifyProof(b *testing.B) {
	tab := newTable(b, 4, "bench")
	it := rekeyItems(b, tab, 1)[0]
	for b.Loop() {
		if err := dleq.Verify(it.Context, it.Statement, it.Proof); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBatchVerify106 batch-verifies one seat's 106 re-key proofs.
func BenchmarkBatchVerify106(b *testing.B) {
	tab := newTable(b, 4, "bench")
	items := rekeyItems(b, tab, 1)
	rnd := newFixedRand("w")
	for b.Loop() {
		if _, err := dleq.BatchVerify(items, rnd); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpen opens one tile with all four shares checked.
func BenchmarkOpen(b *testing.B) {
	tab := newTable(b, 4, "bench")
	shares := tab.shares(b, 3)
	for b.Loop() {
		if _, err := tab.hand.Open(3, shares); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAudit(b *testing.B) {
	tab := newTable(b, 4, "bench")
	seeds := tab.seeds()
	rnd := newFixedRand("a")
	for b.Loop() {
		if _, err := tab.hand.Audit(seeds, rnd); err != nil {
			b.Fatal(err)
		}
	}
}
