package table

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/bot"
)

// greedyMovers seats greedy bots (the realistic players of okey sim).
func greedyMovers(b *testing.B, n int, seed uint64) []Mover {
	out := make([]Mover, n)
	for i := range out {
		s, err := bot.New("greedy", seed*8+uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		out[i] = s
	}
	return out
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkHand plays one whole hand end to end in one process (the
// turkish-rummy quick game of one hand, greedy bots): hello, dealer choice, the joint
// shuffle, re-keys with proofs, the deal, every move with its openings, the
// scoring and the audit, every seat a separate peer over the in-memory
// network. Reported besides ns/op (wall time per hand):
//   - cpu-ms/op: the process's CPU time per hand (both cores);
//   - crypto-ms/op: the peers' time inside shuffles, re-keys, shares and
//     audits, summed over the peers (wall time of those sections, so it
//     counts a section's waits for a core too);
//   - msgs/op: envelopes in the hand's transcript.
//
// How much of a hand is protocol beyond its cryptography is measured from a
// CPU profile (see the Makefile's overhead target): the share of samples
// outside crypto/..., edwards25519 and ristretto255.
func BenchmarkHand(b *testing.B) {
	for _, n := range []int{2, 3, 4} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			var crypto, cpu time.Duration
			msgs := 0
			i := 0
			for b.Loop() {
				i++
				c0 := cpuTime()
				res, err := RunLocal(context.Background(), LocalOptions{Ruleset: "turkish-rummy:rounds=1",
					Movers: greedyMovers(b, n, uint64(i)), Seed: uint64(i), Withhold: 10 * time.Minute})
				if err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - c0
				for k, r := range res.Results {
					if r.Violation != nil || !r.Machine.Done() {
						b.Fatalf("seat %d: %v", k, r.Violation)
					}
					crypto += res.Peers[k].CryptoTime()
				}
				msgs += len(res.Peers[0].Chain())
			}
			b.ReportMetric(float64(cpu.Milliseconds())/float64(i), "cpu-ms/op")
			b.ReportMetric(float64(crypto.Milliseconds())/float64(i), "crypto-ms/op")
			b.ReportMetric(float64(msgs)/float64(i), "msgs/op")
		})
	}
}

// BenchmarkVerifyMatch verifies a ten-hand match transcript offline
// (german, rounds=10, 4 greedy players; okey verify's work). Besides ns/op
// it reports the cost in units of one variable-base scalar multiplication
// timed in the same process just before and after (as crypto/deck's
// BenchmarkDeal): scalarmults/op in wall time, cpu-scalarmults/op in
// process CPU time.
func BenchmarkVerifyMatch(b *testing.B) {
	tr := tenHandTranscript(b)
	b.ResetTimer()
	sm, smCPU := scalarMultTime()
	start, startCPU := time.Now(), cpuTime()
	iters := 0
	for b.Loop() {
		rep := Verify(tr)
		if rep.Invalid != nil || rep.Violation != nil {
			b.Fatalf("verify: %+v", rep)
		}
		iters++
	}
	per := time.Since(start) / time.Duration(iters)
	perCPU := (cpuTime() - startCPU) / time.Duration(iters)
	sm2, smCPU2 := scalarMultTime()
	sm, smCPU = (sm+sm2)/2, (smCPU+smCPU2)/2
	b.ReportMetric(float64(len(tr.Chain)), "msgs")
	b.ReportMetric(float64(per)/float64(sm), "scalarmults/op")
	b.ReportMetric(float64(perCPU)/float64(smCPU), "cpu-scalarmults/op")
}

// scalarMultTime times one ristretto255 ScalarMult, averaged over 2000, in
// wall time and in process CPU time (the README's unit).
func scalarMultTime() (wall, cpu time.Duration) {
	s := ristretto255.NewScalar()
	if _, err := s.SetUniformBytes(bytes.Repeat([]byte{7}, 64)); err != nil {
		panic(err)
	}
	p := ristretto255.NewGeneratorElement()
	var e ristretto255.Element
	start, startCPU := time.Now(), cpuTime()
	for i := 0; i < 2000; i++ {
		e.ScalarMult(s, p)
	}
	return time.Since(start) / 2000, (cpuTime() - startCPU) / 2000
}

// tenHandTranscript plays a ten-hand match (german, rounds=10, 4 greedy
// players). The match's message count varies from run to run (the parallel
// rounds' order); with OKEY_BENCH_TRANSCRIPT set to a file, the match is read
// from it when it exists and written to it when it does not, so that runs
// (and builds) compared verify the same match.
func tenHandTranscript(b *testing.B) *Transcript {
	b.Helper()
	path := os.Getenv("OKEY_BENCH_TRANSCRIPT")
	if path != "" {
		if f, err := os.Open(path); err == nil {
			defer f.Close()
			tr, err := ReadTranscript(f)
			if err != nil {
				b.Fatal(err)
			}
			return tr
		}
	}
	res, err := RunLocal(context.Background(), LocalOptions{Ruleset: "german:points=99,rounds=10",
		Movers: greedyMovers(b, 4, 10), Seed: 10, Withhold: 10 * time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	tr := res.Transcript(-1)
	if hands := len(res.Results[0].Machine.Hands()); hands != 10 {
		b.Fatalf("match played %d hands, want 10", hands)
	}
	if path != "" {
		var buf bytes.Buffer
		if err := WriteTranscript(&buf, tr); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return tr
}
