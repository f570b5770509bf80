package chat

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func testKey(b byte) ed25519.PrivateKey {
	return ed25519.NewKeyFromSeed(bytes.Repeat([]byte{b}, ed25519.SeedSize))
}

func TestRoundTrip(t *testing.T) {
	key := testKey(1)
	for _, m := range []Message{
		{Table: "t1", Member: 2, Time: 1_700_000_000_000, Kind: KindText, Text: "iyi oyundu, ağabey 👍"},
		{Table: strings.Repeat("a", MaxTableID), Member: 254, Time: 1<<64 - 1, Kind: KindQuick, Quick: 6},
		{Table: "x", Member: 0, Time: 0, Kind: KindText, Text: strings.Repeat("ğ", MaxTextRunes)},
	} {
		raw, err := m.Sign(key)
		if err != nil {
			t.Fatalf("%+v: %v", m, err)
		}
		if len(raw) > MaxMessage {
			t.Fatalf("%d bytes", len(raw))
		}
		if !Is(raw) {
			t.Fatal("no magic")
		}
		d, err := Decode(raw)
		if err != nil {
			t.Fatal(err)
		}
		if d.Table != m.Table || d.Member != m.Member || d.Time != m.Time || d.Kind != m.Kind || d.Quick != m.Quick || d.Text != m.Text {
			t.Fatalf("decoded %+v, want %+v", d, m)
		}
		if err := d.Verify(key.Public().(ed25519.PublicKey)); err != nil {
			t.Fatal(err)
		}
		if err := d.Verify(testKey(2).Public().(ed25519.PublicKey)); !errors.Is(err, ErrSignature) {
			t.Fatalf("another key: %v", err)
		}
		again, err := d.Encode()
		if err != nil || !bytes.Equal(again, raw) {
			t.Fatalf("re-encoding differs: %v", err)
		}
	}
}

// TestVector pins the encoding (protocol.md 7.13's example).
func TestVector(t *testing.T) {
	m := Message{Table: "t1", Member: 1, Time: 1_700_000_000_123, Kind: KindQuick, Quick: 1}
	raw, err := m.Sign(testKey(7))
	if err != nil {
		t.Fatal(err)
	}
	const head = "4f4b4301027431010000018bcfe5687b01010000"
	if got := hexOf(raw[:len(raw)-64]); got != head {
		t.Fatalf("body %s, want %s", got, head)
	}
	// Ed25519 is deterministic: the signature with the seed of 32 bytes
	// 0x07 is fixed too.
	const sig = "37892436679a20d9ad700b304528dce4ba9680f5b7efbedffc9a8a068c288f3716cfc862ff1f47ed2f2c520c73226ddadf8a976221078b07f7df578ed8fa0602"
	if got := hexOf(raw[len(raw)-64:]); got != sig {
		t.Fatalf("signature %s, want %s", got, sig)
	}
}

func hexOf(b []byte) string {
	const d = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, d[c>>4], d[c&15])
	}
	return string(out)
}

func TestSignatureBindsEveryByte(t *testing.T) {
	key := testKey(3)
	m := Message{Table: "tbl", Member: 1, Time: 42, Kind: KindText, Text: "hello"}
	raw, err := m.Sign(key)
	if err != nil {
		t.Fatal(err)
	}
	pub := key.Public().(ed25519.PublicKey)
	for i := range raw {
		b := bytes.Clone(raw)
		b[i] ^= 1
		d, err := Decode(b)
		if err != nil {
			continue // refused as malformed
		}
		if d.Verify(pub) == nil {
			t.Fatalf("byte %d flipped, still verifies", i)
		}
	}
	// The label separates it from a signature of the same bytes alone.
	body := raw[:len(raw)-64]
	forged := append(bytes.Clone(body), ed25519.Sign(key, body)...)
	d, err := Decode(forged)
	if err != nil {
		t.Fatal(err)
	}
	if d.Verify(pub) == nil {
		t.Fatal("a signature without the label verifies")
	}
}

func TestDecodeRefuses(t *testing.T) {
	key := testKey(4)
	good, err := (&Message{Table: "t", Member: 0, Time: 1, Kind: KindText, Text: "hi"}).Sign(key)
	if err != nil {
		t.Fatal(err)
	}
	mk := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	cases := map[string][]byte{
		"empty":          nil,
		"other magic":    mk(func(b []byte) []byte { b[0] = 'X'; return b }),
		"version 2":      mk(func(b []byte) []byte { b[3] = 2; return b }),
		"cut":            good[:len(good)-1],
		"trailing byte":  append(bytes.Clone(good), 0),
		"too long":       append(bytes.Clone(good), make([]byte, MaxMessage)...),
		"kind 2":         mk(func(b []byte) []byte { b[4+1+1+1+8] = 2; return b }),
		"text w/ quick":  mk(func(b []byte) []byte { b[4+1+1+1+8+1] = 3; return b }),
		"empty table id": append([]byte("OKC\x01\x00"), good[6:]...),
	}
	for _, bad := range []string{"", " hi", "hi ", "a\x00b", "tab\there", "\xff", strings.Repeat("a", MaxTextRunes+1), strings.Repeat("€", 94)} {
		m := Message{Table: "t", Time: 1, Kind: KindText, Text: bad}
		if _, err := m.Sign(key); err == nil {
			t.Errorf("text %q signed", bad)
		}
	}
	for _, q := range []Message{{Table: "t", Kind: KindQuick}, {Table: "t", Kind: KindQuick, Quick: 1, Text: "x"}, {Table: "t y", Kind: KindQuick, Quick: 1}, {Table: "t", Member: 255, Kind: KindQuick, Quick: 1}} {
		if _, err := q.Sign(key); err == nil {
			t.Errorf("%+v signed", q)
		}
	}
	for name, b := range cases {
		if _, err := Decode(b); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: %v, want ErrMalformed", name, err)
		}
	}
}

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"  hi there \n":                   "hi there",
		"a\tb":                            "a b",
		"x\x00y":                          "xy",
		"\xffok":                          "ok",
		strings.Repeat("ş", 200):          strings.Repeat("ş", MaxTextRunes),
		strings.Repeat("€", MaxTextRunes): strings.Repeat("€", MaxText/3),
	} {
		got := Clean(in)
		if got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
		if got != "" && CheckText(got) != nil {
			t.Errorf("Clean(%q) = %q, refused: %v", in, got, CheckText(got))
		}
	}
}

func TestGuard(t *testing.T) {
	var g Guard
	now := time.UnixMilli(1_700_000_000_000)
	msg := func(member int, at time.Time) *Message {
		return &Message{Table: "t", Member: member, Time: uint64(at.UnixMilli()), Kind: KindQuick, Quick: 1}
	}
	for i := range MaxPerWindow {
		if err := g.Admit(msg(0, now.Add(time.Duration(i)*time.Millisecond)), now, true); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
	}
	if err := g.Admit(msg(0, now.Add(time.Second)), now.Add(time.Second), true); !errors.Is(err, ErrRate) {
		t.Fatalf("sixth within the window: %v", err)
	}
	if err := g.Admit(msg(1, now), now.Add(time.Second), true); err != nil {
		t.Fatalf("another member is not limited by the first: %v", err)
	}
	later := now.Add(Window + time.Second)
	if err := g.Admit(msg(0, later), later, true); err != nil {
		t.Fatalf("after the window: %v", err)
	}
	if err := g.Admit(msg(0, later), later.Add(time.Second), true); !errors.Is(err, ErrReplay) {
		t.Fatalf("a replay: %v", err)
	}
	if err := g.Admit(msg(2, now.Add(-Skew-time.Second)), now, true); !errors.Is(err, ErrStale) {
		t.Fatalf("too old: %v", err)
	}
	if err := g.Admit(msg(2, now.Add(Skew+time.Second)), now, true); !errors.Is(err, ErrStale) {
		t.Fatalf("too new: %v", err)
	}
	if err := g.Admit(msg(2, now.Add(-time.Hour)), now, false); err != nil {
		t.Fatalf("history a spectator fetched: %v", err)
	}
	// Out of order (two paths through the mesh): both are kept, once.
	var h Guard
	a, b := msg(3, now.Add(time.Millisecond)), msg(3, now.Add(2*time.Millisecond))
	for i, m := range []*Message{b, a} {
		if err := h.Admit(m, now, true); err != nil {
			t.Fatalf("out of order %d: %v", i, err)
		}
	}
	for _, m := range []*Message{a, b} {
		if err := h.Admit(m, now.Add(Window), true); !errors.Is(err, ErrReplay) {
			t.Fatalf("again: %v", err)
		}
	}
	// The memory is bounded: beyond KeepSeen the oldest times are
	// forgotten, and anything older than what is remembered is a replay.
	var k Guard
	for i := range KeepSeen + 10 {
		if err := k.Admit(msg(4, time.UnixMilli(int64(1000+i))), now, false); err != nil {
			t.Fatal(err)
		}
	}
	if len(k.seen[4]) != KeepSeen {
		t.Fatalf("remembers %d", len(k.seen[4]))
	}
	if err := k.Admit(msg(4, time.UnixMilli(1003)), now, false); !errors.Is(err, ErrReplay) {
		t.Fatalf("a forgotten old time: %v", err)
	}
}

func TestSender(t *testing.T) {
	var s Sender
	now := time.UnixMilli(5000)
	var last uint64
	for i := range SendPerWindow {
		tm, err := s.Next(now)
		if err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
		if tm <= last && i > 0 {
			t.Fatalf("time %d not after %d", tm, last)
		}
		last = tm
	}
	if _, err := s.Next(now.Add(time.Second)); !errors.Is(err, ErrTooFast) {
		t.Fatalf("fifth: %v", err)
	}
	if _, err := s.Next(now.Add(Window)); err != nil {
		t.Fatalf("after the window: %v", err)
	}
	// A sender within its limit never trips a receiver's, even when its
	// messages arrive bunched up.
	var g Guard
	var snd Sender
	at := time.UnixMilli(1_700_000_000_000)
	sent := 0
	for i := range 200 {
		tm, err := snd.Next(at)
		if err == nil {
			sent++
			arrive := at.Add(time.Duration(i%7) * 300 * time.Millisecond)
			if err := g.Admit(&Message{Member: 0, Time: tm}, arrive, true); err != nil && !errors.Is(err, ErrReplay) {
				t.Fatalf("send %d: %v", i, err)
			}
		}
		at = at.Add(700 * time.Millisecond)
	}
	if sent < 20 {
		t.Fatalf("only %d sent", sent)
	}
}

func TestFile(t *testing.T) {
	key := testKey(5)
	path := filepath.Join(t.TempDir(), "t1.chat")
	if PathBeside(filepath.Join("d", "t1.okey")) != filepath.Join("d", "t1.chat") {
		t.Fatal(PathBeside("d/t1.okey"))
	}
	f, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i, text := range []string{"one", "two"} {
		raw, err := (&Message{Table: "t1", Member: i, Time: uint64(i + 1), Kind: KindText, Text: text}).Sign(key)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Append(raw); err != nil {
			t.Fatal(err)
		}
		want = append(want, text)
	}
	f.Close()
	f, err = OpenFile(path) // reopened: appends after what is there
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := (&Message{Table: "t1", Member: 0, Time: 9, Kind: KindQuick, Quick: 2}).Sign(key)
	if err := f.Append(raw); err != nil {
		t.Fatal(err)
	}
	f.Close()
	b, _ := os.ReadFile(path)
	ms, err := ReadFile(bytes.NewReader(b))
	if err != nil || len(ms) != 3 || ms[0].Text != want[0] || ms[1].Text != want[1] || ms[2].Quick != 2 {
		t.Fatalf("read %d messages, %v", len(ms), err)
	}
	// Cut inside the last record: the whole ones are kept.
	ms, err = ReadFile(bytes.NewReader(b[:len(b)-3]))
	if err != nil || len(ms) != 2 {
		t.Fatalf("cut file: %d messages, %v", len(ms), err)
	}
	if _, err := ReadFile(strings.NewReader("okey-transcript/v1\n")); err == nil {
		t.Fatal("a transcript read as a chat file")
	}
	if err := os.WriteFile(path, []byte("not chat"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFile(path); err == nil {
		t.Fatal("appending to a file that is not a chat file")
	}
}

func FuzzDecode(f *testing.F) {
	key := testKey(6)
	for _, m := range []Message{
		{Table: "t1", Member: 1, Time: 7, Kind: KindText, Text: "selam"},
		{Table: "abc", Member: 3, Time: 1 << 40, Kind: KindQuick, Quick: 9},
	} {
		raw, _ := m.Sign(key)
		f.Add(raw)
	}
	f.Add([]byte("OKC"))
	f.Add([]byte("OKC\x01\xff"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Decode(b)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v is not ErrMalformed", err)
			}
			return
		}
		// What decodes encodes to the very same bytes (one encoding).
		again, err := m.Encode()
		if err != nil {
			t.Fatalf("decoded %+v does not encode: %v", m, err)
		}
		if !bytes.Equal(again, b) {
			t.Fatalf("two encodings of one message")
		}
		_ = m.Verify(key.Public().(ed25519.PublicKey))
	})
}

func FuzzReadFile(f *testing.F) {
	raw, _ := (&Message{Table: "t", Time: 1, Kind: KindQuick, Quick: 1}).Sign(testKey(8))
	f.Add(append([]byte(FileMagic), append([]byte{byte(len(raw))}, raw...)...))
	f.Add([]byte(FileMagic + "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ms, _ := ReadFile(bytes.NewReader(b))
		if len(ms) > len(b) {
			t.Fatal("more messages than bytes")
		}
	})
}
