package lobby

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

func testPeer(t testing.TB) peer.ID {
	k, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// Fixed ids and nonces so that fuzz seeds are stable.
const (
	pidA   = "12D3KooWGzxzKZYveHXtpG6AsrUJBcWxHBFS2HsEoGTxrMLvKXtf"
	pidB   = "12D3KooWLRPJAA5o6Z6s3VBhFqGuAoAnnWBG1pqEHYMcUqmB8gNE"
	nonceA = "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1"
	nonceB = "0000000000000000000000000000000000000000000000000000000000000b0b"
	pidC   = "12D3KooWQYhTNQdmr3ArTeUHRYzFg94BKyTkoWBDWez9kSCVe2Xo"
	pidD   = "12D3KooWBo1AiTvpQBSsyrdMDHaUb1ENsGZUzmDsAAqcfBBjTyv8"
	nonceC = "0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c"
	nonceD = "0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d"
)

func sampleAnnouncement() Announcement {
	return Announcement{
		V: 3, Table: "a1b2c3", Creator: pidA, Seq: 3, Preset: "classic",
		Options: map[string]string{"rounds": "11", "jokers": "on"}, Seats: 4,
		Members: []Seat{{ID: pidA, Name: "Ayşe", Nonce: nonceA, Ready: true}, {ID: pidB, Name: "<Bob & co>", Nonce: nonceB}},
		State:   StateOpen,
	}
}

func TestAnnouncementRoundTrip(t *testing.T) {
	a := sampleAnnouncement()
	b, err := a.Encode()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"v":3,"table":"a1b2c3","creator":"` + pidA + `","seq":3,"preset":"classic","options":{"jokers":"on","rounds":"11"},"seats":4,"members":[{"id":"` + pidA + `","name":"Ayşe","nonce":"` + nonceA + `","ready":true},{"id":"` + pidB + `","name":"<Bob & co>","nonce":"` + nonceB + `","ready":false}],"state":"open"}`
	if string(b) != want {
		t.Fatalf("encoding\n got %s\nwant %s", b, want)
	}
	got, err := DecodeAnnouncement(b)
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := got.Encode()
	if string(b2) != string(b) {
		t.Fatal("round trip changed the bytes")
	}
	empty := sampleAnnouncement()
	empty.Options = nil
	b, err = empty.Encode()
	if err != nil || !strings.Contains(string(b), `"options":{}`) {
		t.Fatalf("empty options: %s %v", b, err)
	}
}

func TestDecodeAnnouncementRejects(t *testing.T) {
	good, _ := sampleAnnouncement().Encode()
	g := string(good)
	mut := func(f func(*Announcement)) string {
		a := sampleAnnouncement()
		f(&a)
		b, err := encodeCanonical(a)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	cases := map[string]string{
		"bad extension key":       strings.Replace(g, `{"v":3,`, `{"v":3,"X":2,`, 1),
		"escaped extension key":   strings.Replace(g, `{"v":3,`, `{"v":3,"\u0078":2,`, 1),
		"extension twice":         strings.Replace(g, `{"v":3,`, `{"v":3,"x":2,"x":2,`, 1),
		"extension spaced":        strings.Replace(g, `{"v":3,`, `{"v":3,"x": 2,`, 1),
		"extension not compact":   strings.Replace(g, `{"v":3,`, `{"v":3,"x":{"a": 1},`, 1),
		"extension bad json":      strings.Replace(g, `{"v":3,`, `{"v":3,"x":tru,`, 1),
		"extension trailing":      strings.Replace(g, `"state":"open"}`, `"state":"open","x":1}{}`, 1),
		"too many extensions":     strings.Replace(g, `"state":"open"}`, `"state":"open"`+manyExtensions(maxExtensions+1)+`}`, 1),
		"extension, bad rest":     strings.Replace(strings.Replace(g, `"v":3`, `"v":4`, 1), `"state":"open"}`, `"state":"open","x":1}`, 1),
		"extension, rest spaced":  strings.Replace(strings.Replace(g, `"v":3`, `"v": 2`, 1), `"state":"open"}`, `"state":"open","x":1}`, 1),
		"extension, known twice":  strings.Replace(g, `"state":"open"}`, `"state":"open","x":1,"state":"open"}`, 1),
		"extension, nested":       strings.Replace(mustString(startedSample()), `{"hand":3,`, `{"hand":3,"x":1,`, 1),
		"extension, option order": strings.Replace(strings.Replace(g, `{"jokers":"on","rounds":"11"}`, `{"rounds":"11","jokers":"on"}`, 1), `"state":"open"}`, `"state":"open","x":1}`, 1),
		"whitespace":              strings.Replace(g, `"v":3`, `"v": 2`, 1),
		"duplicate key":           strings.Replace(g, `{"v":3,`, `{"v":3,"v":3,`, 1),
		"trailing":                g + `{}`,
		"trailing space":          g + " ",
		"key order":               strings.Replace(g, `{"jokers":"on","rounds":"11"}`, `{"rounds":"11","jokers":"on"}`, 1),
		"null options":            strings.Replace(g, `{"jokers":"on","rounds":"11"}`, `null`, 1),
		"html escaped":            strings.Replace(g, `<Bob & co>`, `\u003cBob \u0026 co\u003e`, 1),
		"too big":                 strings.Repeat(" ", MaxAnnouncementSize+1),
		"not json":                "hello",
		"empty":                   "",
		"version 1":               mut(func(a *Announcement) { a.V = 1 }),
		"version 2":               mut(func(a *Announcement) { a.V = 2 }),
		"version 4":               mut(func(a *Announcement) { a.V = 4 }),
		"no nonce":                mut(func(a *Announcement) { a.Members[1].Nonce = "" }),
		"zero nonce":              mut(func(a *Announcement) { a.Members[1].Nonce = strings.Repeat("0", 64) }),
		"short nonce":             mut(func(a *Announcement) { a.Members[1].Nonce = nonceB[2:] }),
		"long nonce":              mut(func(a *Announcement) { a.Members[1].Nonce = nonceB + "00" }),
		"upper nonce":             mut(func(a *Announcement) { a.Members[0].Nonce = strings.ToUpper(nonceA) }),
		"non-hex nonce":           mut(func(a *Announcement) { a.Members[0].Nonce = "g" + nonceA[1:] }),
		"shared nonce":            mut(func(a *Announcement) { a.Members[1].Nonce = nonceA }),
		"missing nonce":           strings.Replace(g, `"nonce":"`+nonceB+`",`, ``, 1),
		"table id":                mut(func(a *Announcement) { a.Table = "a b" }),
		"creator":                 mut(func(a *Announcement) { a.Creator = "nope" }),
		"first seat":              mut(func(a *Announcement) { a.Members[0], a.Members[1] = a.Members[1], a.Members[0] }),
		"seats low":               mut(func(a *Announcement) { a.Seats = 1 }),
		"seats high":              mut(func(a *Announcement) { a.Seats = 5 }),
		"over seats": mut(func(a *Announcement) {
			a.Seats = 2
			a.Members = append(a.Members, Seat{ID: pidB, Name: "c", Nonce: "c" + nonceB[1:]})
		}),
		"seated twice":     mut(func(a *Announcement) { a.Members[1].ID = pidA }),
		"bad name":         mut(func(a *Announcement) { a.Members[1].Name = "a\nb" }),
		"preset":           mut(func(a *Announcement) { a.Preset = "Classic!" }),
		"option key":       mut(func(a *Announcement) { a.Options["Bad Key"] = "1" }),
		"option value":     mut(func(a *Announcement) { a.Options["k"] = "\x00" }),
		"state":            mut(func(a *Announcement) { a.State = "waiting" }),
		"started not full": mut(func(a *Announcement) { a.State = StateStarted }),
		"no members":       mut(func(a *Announcement) { a.Members = nil }),
		"progress open":    mut(func(a *Announcement) { a.Progress = &Progress{Hand: 1, Scores: []int{0, 0, 0, 0}} }),
		"progress hand 0":  mut(func(a *Announcement) { startSample(a); a.Progress.Hand = 0 }),
		"progress hand big": mut(func(a *Announcement) {
			startSample(a)
			a.Progress.Hand = MaxProgressHand + 1
		}),
		"progress scores":     mut(func(a *Announcement) { startSample(a); a.Progress.Scores = a.Progress.Scores[:3] }),
		"progress score big":  mut(func(a *Announcement) { startSample(a); a.Progress.Scores[2] = -MaxProgressScore - 1 }),
		"progress null":       strings.Replace(mustString(startedSample()), `"scores":[5,-3,0,20]`, `"scores":null`, 1),
		"spectators negative": mut(func(a *Announcement) { a.Spectators = -1 }),
		"spectators big":      mut(func(a *Announcement) { a.Spectators = MaxSpectators + 1 }),
		"spectators zero":     strings.Replace(g, `"state":"open"}`, `"state":"open","spectators":0}`, 1),
		"private false":       strings.Replace(g, `"state":"open"}`, `"state":"open","private":false}`, 1),
		"optional order":      strings.Replace(mustString(startedSample()), `"private":true,"progress":{"hand":3,"scores":[5,-3,0,20]}`, `"progress":{"hand":3,"scores":[5,-3,0,20]},"private":true`, 1),
		"progress unknown":    strings.Replace(mustString(startedSample()), `{"hand":3,`, `{"hand":3,"x":1,`, 1),
	}
	for name, in := range cases {
		if _, err := DecodeAnnouncement([]byte(in)); err == nil {
			t.Errorf("%s: accepted %s", name, in)
		}
	}
}

// manyExtensions is n extension members, each preceded by a comma.
func manyExtensions(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `,"x%d":%d`, i, i)
	}
	return b.String()
}

// TestAnnouncementExtensions: top-level keys this version does not know
// (a newer version's optional keys, protocol.md 7.5) are accepted and
// ignored, wherever they stand, when well formed: the announcement decodes
// as the same announcement without them, which the table is listed by.
func TestAnnouncementExtensions(t *testing.T) {
	started := mustString(startedSample())
	plain, _ := sampleAnnouncement().Encode()
	cases := []struct{ name, in, without string }{
		{"after the optional keys", strings.Replace(started, `"spectators":7}`, `"spectators":7,"timer":{"move_s":30,"bank":[1,2]}}`, 1), started},
		{"first", strings.Replace(string(plain), `{"v":3,`, `{"avatar":"x","v":3,`, 1), string(plain)},
		{"between known keys", strings.Replace(string(plain), `"seats":`, `"lang":"tr","seats":`, 1), string(plain)},
		{"several", strings.Replace(string(plain), `"state":"open"}`, `"state":"open"`+manyExtensions(maxExtensions)+`}`, 1), string(plain)},
		{"null and strings", strings.Replace(started, `"state":"started",`, `"state":"started","a.b-c_d":null,"z9":"\u00e7 \" x",`, 1), started},
	}
	for _, c := range cases {
		got, err := DecodeAnnouncement([]byte(c.in))
		if err != nil {
			t.Errorf("%s: %v\n%s", c.name, err, c.in)
			continue
		}
		want, _ := DecodeAnnouncement([]byte(c.without))
		if !announcementEqual(got, want) {
			t.Errorf("%s: decoded %+v, want %+v", c.name, got, want)
		}
		if out, err := got.Encode(); err != nil || string(out) != c.without {
			t.Errorf("%s: re-encoded %s %v, want %s", c.name, out, err, c.without)
		}
	}
}

// startSample makes the sample a started, full table with progress.
func startSample(a *Announcement) {
	a.Members = append(a.Members, Seat{ID: pidC, Name: "c", Nonce: nonceC, Ready: true}, Seat{ID: pidD, Name: "d", Nonce: nonceD, Ready: true})
	for i := range a.Members {
		a.Members[i].Ready = true
	}
	a.State = StateStarted
	a.Private = true
	a.Spectators = 7
	a.Progress = &Progress{Hand: 3, Scores: []int{5, -3, 0, 20}}
}

func startedSample() Announcement {
	a := sampleAnnouncement()
	startSample(&a)
	return a
}

func mustString(a Announcement) string {
	b, err := a.Encode()
	if err != nil {
		panic(err)
	}
	return string(b)
}

// The optional keys (protocol.md 7.5): at their zero values they are left
// out, so that the encoding is the one a decoder without them takes (the
// sample's bytes above are today's); set, they follow "state" in a fixed
// order and round-trip.
func TestAnnouncementOptionalKeys(t *testing.T) {
	a := startedSample()
	b, err := a.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if want := `"state":"started","private":true,"progress":{"hand":3,"scores":[5,-3,0,20]},"spectators":7}`; !strings.HasSuffix(string(b), want) {
		t.Fatalf("encoding %s\nwant it to end in %s", b, want)
	}
	got, err := DecodeAnnouncement(b)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Private || got.Spectators != 7 || got.Progress == nil || got.Progress.Hand != 3 || len(got.Progress.Scores) != 4 {
		t.Fatalf("decoded %+v", got)
	}
	// clone copies the progress: a change to the copy leaves the original.
	c := got.clone()
	c.Progress.Scores[0] = 99
	if got.Progress.Scores[0] != 5 {
		t.Fatal("clone shares the progress's scores")
	}
	// Without them: the very bytes of an announcement of today.
	plain := a
	plain.Private, plain.Spectators, plain.Progress = false, 0, nil
	pb := mustString(plain)
	if strings.Contains(pb, "private") || strings.Contains(pb, "progress") || strings.Contains(pb, "spectators") {
		t.Fatalf("zero optional keys encoded: %s", pb)
	}
}

func TestFormationProgressAndSpectators(t *testing.T) {
	creator, other := testPeer(t), testPeer(t)
	f, err := NewFormation("t1", "classic", nil, 2, creator, "a", NewNonce())
	if err != nil {
		t.Fatal(err)
	}
	if err := f.SetProgress(1, []int{0, 0}); err == nil {
		t.Fatal("progress of an open table accepted")
	}
	if err := f.Join(other, "b", NewNonce()); err != nil {
		t.Fatal(err)
	}
	for _, id := range []peer.ID{creator, other} {
		if _, err := f.SetReady(id, true); err != nil {
			t.Fatal(err)
		}
	}
	seq := f.Announcement().Seq
	if err := f.SetProgress(2, []int{1, 2, 3}); err == nil {
		t.Fatal("three scores for two seats accepted")
	}
	if f.Announcement().Seq != seq || f.Announcement().Progress != nil {
		t.Fatal("a refused progress changed the table")
	}
	if err := f.SetProgress(2, []int{10, -4}); err != nil {
		t.Fatal(err)
	}
	if err := f.SetProgress(2, []int{10, -4}); err != nil {
		t.Fatal(err)
	}
	if a := f.Announcement(); a.Seq != seq+1 || a.Progress.Hand != 2 {
		t.Fatalf("after progress: seq %d (want %d), %+v", a.Seq, seq+1, a.Progress)
	}
	if err := f.SetSpectators(-1); err == nil {
		t.Fatal("negative spectators accepted")
	}
	if err := f.SetSpectators(3); err != nil || f.Announcement().Spectators != 3 || f.Announcement().Seq != seq+2 {
		t.Fatalf("spectators: %v %+v", err, f.Announcement())
	}
	if _, err := f.Announcement().Encode(); err != nil {
		t.Fatal(err)
	}
}

func FuzzDecodeAnnouncement(f *testing.F) {
	good, _ := sampleAnnouncement().Encode()
	f.Add(good)
	f.Add([]byte(mustString(startedSample())))
	f.Add([]byte(`{"v":3}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"v":3,"table":"t","creator":"` + pidA + `","seq":0,"preset":"p","options":{},"seats":2,"members":[{"id":"` + pidA + `","name":"a","nonce":"` + nonceA + `","ready":false}],"state":"open"}`))
	f.Add([]byte(strings.Replace(string(good), `"state":"open"}`, `"state":"open","x":[1,{"y":null}]}`, 1)))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := DecodeAnnouncement(b)
		if err != nil {
			return
		}
		out, err := a.Encode()
		if err != nil {
			t.Fatalf("decoded announcement does not encode: %v", err)
		}
		// The round trip gives the input without its extensions, which is
		// itself accepted as the same announcement.
		known, exts, err := stripExtensions(b)
		if err != nil {
			t.Fatalf("accepted, but its extensions do not strip: %v", err)
		}
		if string(out) != string(known) || (len(exts) == 0) != (string(known) == string(b)) {
			t.Fatalf("round trip: %q -> %q (extensions %q)", b, out, exts)
		}
		if again, err := DecodeAnnouncement(known); err != nil || !announcementEqual(a, again) {
			t.Fatalf("without its extensions: %v", err)
		}
	})
}

func TestFormation(t *testing.T) {
	creator, p2, p3, p4 := testPeer(t), testPeer(t), testPeer(t), testPeer(t)
	nc, n2, n3, n4 := NewNonce(), NewNonce(), NewNonce(), NewNonce()
	f, err := NewFormation("t1", "classic", map[string]string{"rounds": "5"}, 3, creator, "Ana", nc)
	if err != nil {
		t.Fatal(err)
	}
	// step applies op and checks its error; a failed op must change nothing.
	step := func(what string, op func() error, want error) {
		t.Helper()
		before := f.Announcement()
		err := op()
		if !errors.Is(err, want) || (want == nil && err != nil) {
			t.Fatalf("%s: error %v, want %v", what, err, want)
		}
		if err != nil && !announcementEqual(before, f.Announcement()) {
			t.Fatalf("%s: failed but changed the table", what)
		}
		if err == nil && f.Announcement().Seq != before.Seq+1 {
			t.Fatalf("%s: seq not incremented", what)
		}
		if _, err := f.Announcement().Encode(); err != nil {
			t.Fatalf("%s: announcement invalid: %v", what, err)
		}
	}
	ready := func(id peer.ID, r bool) func() error {
		return func() error { _, err := f.SetReady(id, r); return err }
	}
	errAny := errors.New("any")
	anyErr := func(op func() error) func() error {
		return func() error {
			if op() != nil {
				return errAny
			}
			return nil
		}
	}
	step("join p2", func() error { return f.Join(p2, "Bora", n2) }, nil)
	step("join p2 again", func() error { return f.Join(p2, "Bora", NewNonce()) }, ErrAlreadySeated)
	step("join bad name", anyErr(func() error { return f.Join(p3, "a\tb", n3) }), errAny)
	step("join bad id", anyErr(func() error { return f.Join(peer.ID("x"), "x", n3) }), errAny)
	step("join with the creator's nonce", func() error { return f.Join(p3, "Cem", nc) }, ErrNonceTaken)
	step("join with p2's nonce", func() error { return f.Join(p3, "Cem", n2) }, ErrNonceTaken)
	step("join without nonce", func() error { return f.Join(p3, "Cem", Nonce{}) }, ErrBadNonce)
	step("ready p2", ready(p2, true), nil)
	step("ready unseated", ready(p3, true), ErrNotSeated)
	step("creator leaves", func() error { return f.Leave(creator) }, ErrCreatorLeave)
	step("p3 leaves unseated", func() error { return f.Leave(p3) }, ErrNotSeated)
	step("join p3", func() error { return f.Join(p3, "Cem", n3) }, nil)
	step("join p4 full", func() error { return f.Join(p4, "Deniz", n4) }, ErrTableFull)
	step("p3 leaves", func() error { return f.Leave(p3) }, nil)
	step("join p4", func() error { return f.Join(p4, "Deniz", n4) }, nil)
	step("ready creator", ready(creator, true), nil)
	if f.State() != StateOpen {
		t.Fatal("started before everyone was ready")
	}
	step("p4 ready", ready(p4, true), nil)
	if f.State() != StateStarted {
		t.Fatal("full and ready table did not start")
	}
	a := f.Announcement()
	want := []peer.ID{creator, p2, p4}
	wantNonce := []Nonce{nc, n2, n4}
	for i, id := range a.Roster() {
		if id != want[i] {
			t.Fatalf("seat %d is %s, want %s", i, id, want[i])
		}
		if got, err := a.Members[i].ParsedNonce(); err != nil || got != wantNonce[i] {
			t.Fatalf("seat %d nonce %s, want %s (%v)", i, a.Members[i].Nonce, wantNonce[i], err)
		}
	}
	if _, err := DecodeAnnouncement(must(a.Encode())); err != nil {
		t.Fatalf("started announcement: %v", err)
	}
	step("join after start", func() error { return f.Join(p3, "Cem", n3) }, ErrTableStarted)
	step("leave after start", func() error { return f.Leave(p2) }, ErrTableStarted)
	step("unready after start", ready(p2, false), ErrTableStarted)
	f.Close()
	if f.State() != StateStarted {
		t.Fatal("Close changed a started table")
	}

	g, _ := NewFormation("t2", "classic", nil, 2, creator, "Ana", NewNonce())
	g.Close()
	if g.State() != StateClosed || g.Join(p2, "Bora", NewNonce()) != ErrTableClosed {
		t.Fatal("closed table accepts joins")
	}
	for _, bad := range []struct {
		id, preset string
		seats      int
		name       string
	}{{"bad id", "classic", 4, "Ana"}, {"t", "", 4, "Ana"}, {"t", "classic", 1, "Ana"}, {"t", "classic", 5, "Ana"}, {"t", "classic", 4, ""}} {
		if _, err := NewFormation(bad.id, bad.preset, nil, bad.seats, creator, bad.name, NewNonce()); err == nil {
			t.Errorf("NewFormation(%+v) accepted", bad)
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func TestNonce(t *testing.T) {
	a, b := NewNonce(), NewNonce()
	if a == b || a == (Nonce{}) {
		t.Fatal("NewNonce repeats or is zero")
	}
	got, err := ParseNonce(a.String())
	if err != nil || got != a || len(a.String()) != 64 || strings.ToLower(a.String()) != a.String() {
		t.Fatalf("round trip %s: %v", a, err)
	}
	for _, bad := range []string{"", nonceA[:63], nonceA + "a", strings.ToUpper(nonceA), " " + nonceA[1:], strings.Repeat("0", 64), "0x" + nonceA[2:]} {
		if _, err := ParseNonce(bad); !errors.Is(err, ErrBadNonce) {
			t.Errorf("ParseNonce(%q): %v", bad, err)
		}
	}
}
