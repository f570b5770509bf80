package commit

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/okey-game/okey/crypto/blame"
	"github.com/okey-game/okey/crypto/group"
	"github.com/okey-game/okey/internal/lane"
)

type counterRand struct{ ctr uint64 }

func (r *counterRand) Read(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		d := sha256.Sum256(binary.BigEndian.AppendUint64(nil, r.ctr))
		r.ctr++
		p = p[copy(p, d[:]):]
	}
	return n, nil
}

var session = []byte("session-1")

func wantFault(t *testing.T, err, rule error, seat int) {
	t.Helper()
	s, ok := blame.Seat(err)
	if !ok || s != seat || !errors.Is(err, rule) {
		t.Fatalf("got %v, want %v blaming seat %d", err, rule, seat)
	}
}

func TestCommitReveal(t *testing.T) {
	rnd := &counterRand{}
	var cs, os [][]byte
	for seat := 0; seat < 4; seat++ {
		c, o, err := Commit("dealer", session, 3, seat, rnd)
		if err != nil {
			t.Fatal(err)
		}
		cs, os = append(cs, c), append(os, o)
	}
	if err := CheckDistinct([]int{0, 1, 2, 3}, cs); err != nil {
		t.Fatal(err)
	}
	for seat := range cs {
		if err := Check("dealer", session, 3, seat, cs[seat], os[seat]); err != nil {
			t.Fatalf("seat %d: %v", seat, err)
		}
	}
	t.Run("mismatch", func(t *testing.T) {
		bad := append([]byte(nil), os[2]...)
		bad[0] ^= 1
		wantFault(t, Check("dealer", session, 3, 2, cs[2], bad), ErrMismatch, 2)
	})
	t.Run("bound to label, session, round and seat", func(t *testing.T) {
		wantFault(t, Check("die", session, 3, 2, cs[2], os[2]), ErrMismatch, 2)
		wantFault(t, Check("dealer", []byte("session-2"), 3, 2, cs[2], os[2]), ErrMismatch, 2)
		wantFault(t, Check("dealer", session, 4, 2, cs[2], os[2]), ErrMismatch, 2)
		wantFault(t, Check("dealer", session, 3, 1, cs[2], os[2]), ErrMismatch, 1)
	})
	t.Run("copied commitment", func(t *testing.T) {
		// Seat 3, sending after seat 1, copies seat 1's commitment.
		copied := [][]byte{cs[0], cs[1], cs[2], cs[1]}
		err := CheckDistinct([]int{0, 1, 2, 3}, copied)
		wantFault(t, err, ErrCopied, 3)
		var f *blame.Fault
		if errors.As(err, &f); f.Pos != 1 {
			t.Fatalf("pos %d, want 1", f.Pos)
		}
		// Even past that check, the copier cannot open it: seat 1's opening
		// does not match for seat 3.
		wantFault(t, Check("dealer", session, 3, 3, cs[1], os[1]), ErrMismatch, 3)
	})
	t.Run("malformed", func(t *testing.T) {
		wantFault(t, Check("dealer", session, 3, 0, cs[0][:31], os[0]), ErrEncoding, 0)
		wantFault(t, Check("dealer", session, 3, 0, cs[0], append(os[0], 0)), ErrEncoding, 0)
		wantFault(t, CheckDistinct([]int{5}, [][]byte{{1}}), ErrEncoding, 5)
	})
	v, err := Combine("dealer", session, 3, os)
	if err != nil {
		t.Fatal(err)
	}
	// Every opening matters, and so does the order.
	os2 := append([][]byte(nil), os...)
	os2[0], os2[1] = os2[1], os2[0]
	if v2, _ := Combine("dealer", session, 3, os2); v2 == v {
		t.Fatal("combine ignores seat order")
	}
	if v3, _ := Combine("dealer", session, 3, os[:3]); v3 == v {
		t.Fatal("combine ignores an opening")
	}
	if d := Die(v); d < 1 || d > 6 {
		t.Fatalf("die %d", d)
	}
	if _, err := Choice(v, 0); !errors.Is(err, ErrParams) {
		t.Fatal("choice among 0")
	}
	if c, err := Choice(v, 1); err != nil || c != 0 {
		t.Fatal("choice among 1")
	}
	if _, _, err := Commit("", session, 0, 0, rnd); !errors.Is(err, ErrParams) {
		t.Fatal("empty label accepted")
	}
}

// TestUniformSpec checks Uniform against the spec written out by hand.
func TestUniformSpec(t *testing.T) {
	for i := 0; i < 200; i++ {
		var v Value
		d := sha256.Sum256([]byte{byte(i)})
		copy(v[:], d[:])
		for _, n := range []uint32{1, 2, 6, 7, 1 << 31, 1<<32 - 1} {
			got, err := Uniform(v, n)
			if err != nil {
				t.Fatal(err)
			}
			key := binary.BigEndian.AppendUint32(append([]byte(nil), v[:]...), n)
			var want uint64
			for c := uint32(0); ; c++ {
				blk := group.NewTranscript(LabelUniform).Bytes(key).Uint32(c).Sum()
				found := false
				for w := 0; w < 8; w++ {
					x := binary.BigEndian.Uint64(blk[8*w:])
					if x < -(-uint64(n)%uint64(n)) || -uint64(n)%uint64(n) == 0 {
						want, found = x%uint64(n), true
						break
					}
				}
				if found {
					break
				}
			}
			if uint64(got) != want {
				t.Fatalf("Uniform(v%d, %d) = %d, want %d", i, n, got, want)
			}
		}
	}
}

// chiSquare returns sum (O-E)^2/E for uniform expectations.
func chiSquare(counts []int, total int) float64 {
	e := float64(total) / float64(len(counts))
	var x float64
	for _, c := range counts {
		d := float64(c) - e
		x += d * d / e
	}
	return x
}

// chi2Crit5 is the chi-square critical value for 5 degrees of freedom at
// p = 1e-6.
const chi2Crit5 = 35.89

// dieSamples: the 8-bit modulo-biased die (residues 0-3 at 43/256, 4-5 at
// 42/256) has noncentrality N*6*sum(p_i-1/6)^2 = N*1.22e-4; at N = 2^19 that
// is 64, so its statistic is about 69, far above the p=1e-6 bound of 35.9,
// while a fair die exceeds it with probability 1e-6 (and the inputs are
// fixed, so the test cannot flake).
const dieSamples = 1 << 19

func rollAll(roll func(v Value) int) []int {
	counts := make([]int, 6)
	var v Value
	for i := 0; i < dieSamples; i++ {
		binary.BigEndian.PutUint64(v[:], uint64(i))
		counts[roll(v)-1]++
	}
	return counts
}

func TestDieUniform(t *testing.T) {
	lane.NoRace(t)
	if testing.Short() {
		t.Skip("statistical test")
	}
	counts := rollAll(Die)
	if x := chiSquare(counts, dieSamples); x > chi2Crit5 {
		t.Fatalf("die counts %v: chi-square %.1f > %.1f", counts, x, chi2Crit5)
	}
	// The same test catches a modulo bias.
	biased := rollAll(func(v Value) int {
		d := sha256.Sum256(v[:])
		return int(d[0])%6 + 1
	})
	if x := chiSquare(biased, dieSamples); x <= chi2Crit5 {
		t.Fatalf("modulo-biased die not caught: chi-square %.1f", x)
	}
}

func TestChoiceUniform(t *testing.T) {
	lane.NoRace(t)
	if testing.Short() {
		t.Skip("statistical test")
	}
	// Choice among 3 seats, 2 degrees of freedom; p = 1e-6 bound 27.63.
	const n = 1 << 17
	counts := make([]int, 3)
	var v Value
	for i := 0; i < n; i++ {
		binary.BigEndian.PutUint64(v[8:], uint64(i))
		c, _ := Choice(v, 3)
		counts[c]++
	}
	if x := chiSquare(counts, n); x > 27.63 {
		t.Fatalf("choice counts %v: chi-square %.1f", counts, x)
	}
}

func FuzzCheck(f *testing.F) {
	c, o, _ := Commit("die", session, 1, 2, &counterRand{})
	f.Add(c, o, 2)
	f.Add([]byte{}, []byte{}, 0)
	f.Fuzz(func(t *testing.T, c, o []byte, seat int) {
		err := Check("die", session, 1, seat, c, o)
		if err == nil && !bytes.Equal(c, commitment("die", session, 1, seat, o)) {
			t.Fatal("accepted a mismatch")
		}
	})
}
