package table

import (
	"bytes"
	"context"
	"testing"
	"time"
)

var contextBackground = context.Background

const stallForFuzz = 400 * time.Millisecond

// FuzzDecodeEnvelope: never panics; whatever decodes re-encodes to itself.
func FuzzDecodeEnvelope(f *testing.F) {
	cfg, keys, _ := LocalConfig("classic", 2, 9)
	e := &Envelope{Table: cfg.ID, Step: 3, Seat: 1, Kind: KindMove, Body: []byte{3, 0xff}}
	e.Seal(keys[1], cfg.Hash())
	f.Add(e.Raw)
	old := &Envelope{Version: Version1, Table: cfg.ID, Step: 3, Seat: 1, Kind: KindMove, Body: []byte{3, 0xff}}
	old.Seal(keys[1], cfg.Hash())
	f.Add(old.Raw) // table protocol 1's, as an earlier okey wrote it
	f.Add([]byte("OKY\x01"))
	f.Add([]byte("OKY\x03"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		env, err := DecodeEnvelope(raw)
		if err != nil {
			return
		}
		if !bytes.Equal(env.Raw, raw) {
			t.Fatal("raw bytes not kept")
		}
		c := *env
		if int(c.Seat) < len(keys) && c.Verify(cfg.Seats[c.Seat].Key, cfg.Hash()) == nil {
			c.Seal(keys[c.Seat], cfg.Hash())
			if !bytes.Equal(c.Raw, raw) {
				t.Fatal("a verified envelope does not re-encode to itself")
			}
		}
	})
}

// FuzzVerify: the verifier never panics and never calls a corrupted
// transcript of a real match honest.
func FuzzVerify(f *testing.F) {
	res := runForFuzz(f)
	var buf bytes.Buffer
	WriteTranscript(&buf, res)
	good := buf.Bytes()
	f.Add(good, uint32(100), byte(1))
	f.Add([]byte("okey-transcript/v1\n"), uint32(0), byte(0))
	f.Fuzz(func(t *testing.T, file []byte, pos uint32, x byte) {
		tr, err := ReadTranscript(bytes.NewReader(file))
		if err != nil {
			return
		}
		rep := Verify(tr)
		if len(file) == len(good) && x != 0 && int(pos) < len(good) {
			mut := append([]byte(nil), good...)
			mut[pos] ^= x
			if tr2, err := ReadTranscript(bytes.NewReader(mut)); err == nil && Verify(tr2).Honest {
				t.Fatalf("byte %d flipped and still honest", pos)
			}
		}
		_ = rep
	})
}

func runForFuzz(f *testing.F) *Transcript {
	f.Helper()
	tr, err := honestTranscriptForFuzz()
	if err != nil {
		f.Fatal(err)
	}
	return tr
}

func honestTranscriptForFuzz() (*Transcript, error) {
	ctx := contextBackground()
	res, err := RunLocal(ctx, LocalOptions{Ruleset: "turkish-rummy:rounds=1", Movers: movers(2, 5), Seed: 5, Stall: stallForFuzz, Withhold: 10 * time.Minute})
	if err != nil {
		return nil, err
	}
	return res.Transcript(-1), nil
}
