package table

import (
	"bytes"
	"encoding/binary"
	"os"
	"testing"
)

// TestDirStoreLoad: a torn last record is dropped; damage anywhere else is
// an error and the file is left as it was.
func TestDirStoreLoad(t *testing.T) {
	cfg, keys, err := LocalConfig("turkish-rummy:rounds=1", 2, 5)
	if err != nil {
		t.Fatal(err)
	}
	write := func(t *testing.T, tail []byte) (*DirStore, []byte) {
		s, err := OpenDirStore(t.TempDir(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3; i++ {
			e := &Envelope{Table: cfg.ID, Step: uint32(i), Seat: uint8(i % 2), Kind: KindHello, Body: make([]byte, 64)}
			e.Seal(keys[i%2], cfg.Hash())
			if err := s.Append(RecEnvelope, e.Raw); err != nil {
				t.Fatal(err)
			}
		}
		s.Close()
		b, err := os.ReadFile(s.TranscriptPath())
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, tail...)
		if err := os.WriteFile(s.TranscriptPath(), b, 0o600); err != nil {
			t.Fatal(err)
		}
		return s, b
	}

	s, _ := write(t, []byte{RecEnvelope, 0, 0, 0, 40, 1, 2}) // 40 bytes announced, 2 written
	tr, err := s.Load()
	if err != nil || len(tr.Chain) != 3 {
		t.Fatalf("torn tail: %v, %+v", err, tr)
	}
	if again, err := s.Load(); err != nil || len(again.Chain) != 3 {
		t.Fatalf("after truncation: %v", err)
	}

	s, before := write(t, nil)
	hdr := len(transcriptMagic) + 4 + int(binary.BigEndian.Uint32(before[len(transcriptMagic):]))
	before[hdr+1] = 0xff // the first record's length, far beyond MaxEnvelope
	if err := os.WriteFile(s.TranscriptPath(), before, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(); err == nil {
		t.Fatal("a damaged middle record loaded")
	}
	if after, _ := os.ReadFile(s.TranscriptPath()); !bytes.Equal(after, before) {
		t.Fatal("the damaged file was changed")
	}

	s, _ = write(t, []byte{9, 0}) // an unknown record type: damage, not a torn write
	if _, err := s.Load(); err == nil {
		t.Fatal("an unknown record type loaded")
	}
}
