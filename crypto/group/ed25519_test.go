package group

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"testing"

	"filippo.io/edwards25519"

	"github.com/okey-game/okey/internal/lane"
)

// torsion8 is a point of order 8 (RFC 8032's edge-case vectors use it).
func torsion8(t testing.TB) *edwards25519.Point {
	b, _ := hex.DecodeString("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")
	p, err := new(edwards25519.Point).SetBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func detScalar(seed ...byte) *edwards25519.Scalar {
	h := sha512.Sum512(seed)
	s, _ := new(edwards25519.Scalar).SetUniformBytes(h[:])
	return s
}

// rawSign signs msg with scalar a for the public key bytes pub and the
// nonce point R (any point, torsion allowed): S = r + k*a.
func rawSign(pub []byte, a, r *edwards25519.Scalar, rp *edwards25519.Point, msg []byte) []byte {
	h := sha512.New()
	h.Write(rp.Bytes())
	h.Write(pub)
	h.Write(msg)
	k, _ := new(edwards25519.Scalar).SetUniformBytes(h.Sum(nil))
	s := new(edwards25519.Scalar).MultiplyAdd(k, a, r)
	return append(rp.Bytes(), s.Bytes()...)
}

// ed25519Cases are public keys, messages and signatures on which
// crypto/ed25519 accepts and refuses: honest ones, bit flips, S + l, keys
// and nonces with a point of order 8, keys that do not decode, non-canonical
// key encodings, small-order keys.
func ed25519Cases(t testing.TB) (pubs, msgs, sigs [][]byte) {
	add := func(pub, msg, sig []byte) {
		pubs, msgs, sigs = append(pubs, pub), append(msgs, msg), append(sigs, sig)
	}
	t8 := torsion8(t)
	lBytes, _ := hex.DecodeString("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010")
	for i := 0; i < 24; i++ {
		priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{byte(i + 1)}, 32))
		pub := []byte(priv.Public().(ed25519.PublicKey))
		msg := bytes.Repeat([]byte{byte(i)}, i*7)
		sig := ed25519.Sign(priv, msg)
		add(pub, msg, sig)
		for _, bit := range []int{0, 9, 255, 256, 300, 503, 511} {
			bad := append([]byte(nil), sig...)
			bad[bit/8] ^= 1 << (bit % 8)
			add(pub, msg, bad)
		}
		// S + l: the same point, refused as non-canonical.
		var sl [32]byte
		carry := 0
		for j := 0; j < 32; j++ {
			v := int(sig[32+j]) + int(lBytes[j]) + carry
			sl[j], carry = byte(v), v>>8
		}
		add(pub, msg, append(append([]byte(nil), sig[:32]...), sl[:]...))
		add(pub, append(msg, 1), sig)

		// A key with a point of order 8 in it, and nonces with one: about
		// one in eight such signatures holds without the cofactor.
		a := detScalar(byte(i), 1)
		ap := new(edwards25519.Point).ScalarBaseMult(a)
		ap.Add(ap, t8)
		tpub := ap.Bytes()
		r := detScalar(byte(i), 2)
		tp := new(edwards25519.Point).Set(edwards25519.NewIdentityPoint())
		for k := 0; k < 8; k++ {
			rp := new(edwards25519.Point).ScalarBaseMult(r)
			rp.Add(rp, tp)
			add(tpub, msg, rawSign(tpub, a, r, rp, msg))
			tp.Add(tp, t8)
		}
		// An honest key, a nonce with torsion.
		hp := new(edwards25519.Point).ScalarBaseMult(a)
		rp := new(edwards25519.Point).ScalarBaseMult(r)
		rp.Add(rp, t8)
		add(hp.Bytes(), msg, rawSign(hp.Bytes(), a, r, rp, msg))
	}
	// Small-order keys: the identity and the point of order 8, with R the
	// identity and S zero (holds without the cofactor for any message).
	id := edwards25519.NewIdentityPoint().Bytes()
	zero := make([]byte, 32)
	for _, pub := range [][]byte{id, t8.Bytes()} {
		add(pub, []byte("m"), append(append([]byte(nil), id...), zero...))
		add(pub, []byte("m"), append(t8.Bytes(), zero...))
	}
	// Keys that do not decode, and a non-canonical encoding of y = 1 (p+1).
	nc, _ := hex.DecodeString("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")
	add(nc, []byte("m"), append(append([]byte(nil), id...), zero...))
	bad := bytes.Repeat([]byte{0xff}, 32)
	add(bad, []byte("m"), append(append([]byte(nil), id...), zero...))
	two := make([]byte, 32)
	two[0] = 2
	add(two, []byte("m"), append(append([]byte(nil), id...), zero...))
	return pubs, msgs, sigs
}

func TestEd25519KeyMatchesStdlib(t *testing.T) {
	lane.NoRace(t)
	pubs, msgs, sigs := ed25519Cases(t)
	accepted := 0
	for i := range pubs {
		want := ed25519.Verify(pubs[i], msgs[i], sigs[i])
		if got := NewEd25519Key(pubs[i]).Verify(msgs[i], sigs[i]); got != want {
			t.Errorf("case %d: pub %x sig %x: Verify %v, crypto/ed25519 %v", i, pubs[i], sigs[i], got, want)
		}
		if want {
			accepted++
		}
	}
	// The cases must exercise both answers, torsion accepted included
	// (24 honest + about 24*8/8 torsion ones + the small-order keys).
	t.Logf("%d of %d cases accepted", accepted, len(pubs))
	if accepted < 30 || accepted > len(pubs)-100 {
		t.Fatalf("%d of %d cases accepted: the cases do not test both answers", accepted, len(pubs))
	}
	if NewEd25519Key(make([]byte, 31)) != nil {
		t.Fatal("a 31-byte key was prepared")
	}
}

// TestVerifyEd25519BatchMatchesStdlib: every case verified in one batch
// (and in batches of one, and with a nil key among them) gives, case by
// case, crypto/ed25519.Verify's answer.
func TestVerifyEd25519BatchMatchesStdlib(t *testing.T) {
	lane.NoRace(t)
	bothPaths(t, testVerifyEd25519Batch)
}

func testVerifyEd25519Batch(t *testing.T) {
	pubs, msgs, sigs := ed25519Cases(t)
	keys := make([]*Ed25519Key, len(pubs))
	for i := range pubs {
		keys[i] = NewEd25519Key(pubs[i])
	}
	keys = append(keys, nil)
	msgs = append(msgs, []byte("m"))
	sigs = append(sigs, sigs[0])
	got := VerifyEd25519Batch(keys, msgs, sigs)
	for i := range pubs {
		want := ed25519.Verify(pubs[i], msgs[i], sigs[i])
		if got[i] != want {
			t.Errorf("case %d: pub %x sig %x: batch %v, crypto/ed25519 %v", i, pubs[i], sigs[i], got[i], want)
		}
		if one := VerifyEd25519Batch(keys[i:i+1], msgs[i:i+1], sigs[i:i+1]); one[0] != want {
			t.Errorf("case %d alone: batch %v, crypto/ed25519 %v", i, one[0], want)
		}
	}
	if got[len(pubs)] {
		t.Fatal("a nil key verified a signature")
	}
	if len(VerifyEd25519Batch(nil, nil, nil)) != 0 {
		t.Fatal("an empty batch answered")
	}
}

func FuzzEd25519Key(f *testing.F) {
	pubs, msgs, sigs := ed25519Cases(f)
	for i := range pubs {
		f.Add(pubs[i], msgs[i], sigs[i])
	}
	f.Fuzz(func(t *testing.T, pub, msg, sig []byte) {
		if len(pub) != 32 {
			if NewEd25519Key(pub) != nil {
				t.Fatal("key of a wrong length prepared")
			}
			return
		}
		k := NewEd25519Key(pub)
		want := ed25519.Verify(pub, msg, sig)
		if got := k.Verify(msg, sig); got != want {
			t.Fatalf("Verify %v, crypto/ed25519 %v", got, want)
		}
		// In a batch, beside an honest signature that shares its inversion.
		got := VerifyEd25519Batch([]*Ed25519Key{fuzzHonest.key, k}, [][]byte{fuzzHonest.msg, msg}, [][]byte{fuzzHonest.sig, sig})
		if !got[0] || got[1] != want {
			t.Fatalf("batch %v, want [true %v]", got, want)
		}
	})
}

var fuzzHonest = func() (h struct {
	key      *Ed25519Key
	msg, sig []byte
}) {
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{9}, 32))
	h.key = NewEd25519Key(priv.Public().(ed25519.PublicKey))
	h.msg = []byte("honest")
	h.sig = ed25519.Sign(priv, h.msg)
	return h
}()

func BenchmarkEd25519Verify(b *testing.B) {
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{3}, 32))
	pub := priv.Public().(ed25519.PublicKey)
	msg := bytes.Repeat([]byte{1}, 300)
	sig := ed25519.Sign(priv, msg)
	k := NewEd25519Key(pub)
	b.Run("stdlib", func(b *testing.B) {
		for b.Loop() {
			if !ed25519.Verify(pub, msg, sig) {
				b.Fatal("refused")
			}
		}
	})
	b.Run("table", func(b *testing.B) {
		for b.Loop() {
			if !k.Verify(msg, sig) {
				b.Fatal("refused")
			}
		}
	})
	b.Run("newkey", func(b *testing.B) {
		for b.Loop() {
			NewEd25519Key(pub)
		}
	})
	// 64 signatures as VerifyEd25519Batch checks them, ns/op per signature:
	// one by one on field.Element, and eight at once on fe8's lanes.
	keys, msgs, sigs := make([]*Ed25519Key, 64), make([][]byte, 64), make([][]byte, 64)
	for i := range keys {
		keys[i], msgs[i], sigs[i] = k, msg, sig
	}
	saved := useFe8
	defer func() { useFe8 = saved }()
	for _, on := range []bool{false, true} {
		if on && !saved {
			continue
		}
		b.Run(fmt.Sprintf("batch64/fe8=%v", on), func(b *testing.B) {
			useFe8 = on
			for b.Loop() {
				for _, ok := range VerifyEd25519Batch(keys, msgs, sigs) {
					if !ok {
						b.Fatal("refused")
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/64, "ns/sig")
		})
	}
}

// TestEd25519KeyConcurrent: one key used by several goroutines at once
// (table's envelope checks do), the base table made by whichever comes first.
func TestEd25519KeyConcurrent(t *testing.T) {
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{5}, 32))
	k := NewEd25519Key(priv.Public().(ed25519.PublicKey))
	errs := make(chan string, 4)
	for g := 0; g < 4; g++ {
		go func() {
			msg := []byte{byte(g)}
			sig := ed25519.Sign(priv, msg)
			switch {
			case !k.Verify(msg, sig):
				errs <- "honest signature refused"
			case k.Verify(append(msg, 0), sig):
				errs <- "signature of another message accepted"
			default:
				errs <- ""
			}
		}()
	}
	for g := 0; g < 4; g++ {
		if e := <-errs; e != "" {
			t.Fatal(e)
		}
	}
}
