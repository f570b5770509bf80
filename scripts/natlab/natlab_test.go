//go:build linux

package main

import (
	"fmt"
	"math/rand/v2"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseImpairment(t *testing.T) {
	for _, c := range []struct {
		in   string
		want impairment
		bad  bool
	}{
		{in: "", want: impairment{}},
		{in: "delay=25ms jitter=5ms loss=0.5% dup=1%", want: impairment{Delay: 25 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.005, Dup: 0.01}},
		{in: "delay=50ms,loss=0.01\n", want: impairment{Delay: 50 * time.Millisecond, Loss: 0.01}},
		{in: "delay=-1ms", bad: true},
		{in: "delay=11s", bad: true},
		{in: "loss=101%", bad: true},
		{in: "loss=-0.1", bad: true},
		{in: "rate=1mbit", bad: true},
		{in: "delay", bad: true},
	} {
		got, err := parseImpairment(c.in)
		if c.bad {
			if err == nil {
				t.Errorf("%q: no error, got %v", c.in, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: %v %v, want %v", c.in, got, err, c.want)
		}
	}
}

// TestSchedule: delay, jitter bounds, order kept, and loss and
// duplication at their rates (a fixed seed: deterministic).
func TestSchedule(t *testing.T) {
	s := &scheduler{rng: rand.New(rand.NewPCG(1, 2))}
	im := impairment{Delay: 25 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.1, Dup: 0.05}
	t0 := time.Unix(1000, 0)
	const n = 20000
	lost, dups := 0, 0
	var last time.Time
	for i := range n {
		now := t0.Add(time.Duration(i) * time.Millisecond)
		ts := s.schedule(im, now)
		switch len(ts) {
		case 0:
			lost++
			continue
		case 2:
			dups++
			if ts[0] != ts[1] {
				t.Fatalf("a duplicate at another time: %v", ts)
			}
		}
		d := ts[0].Sub(now)
		if d < 20*time.Millisecond || d > 30*time.Millisecond+time.Millisecond {
			// the order rule may hold a packet back by at most the jitter span
			t.Fatalf("packet %d delayed %v", i, d)
		}
		if ts[0].Before(last) {
			t.Fatalf("packet %d overtakes the one before", i)
		}
		last = ts[0]
	}
	if f := float64(lost) / n; f < 0.09 || f > 0.11 {
		t.Errorf("lost %.3f, want 0.1", f)
	}
	if f := float64(dups) / float64(n-lost); f < 0.04 || f > 0.06 {
		t.Errorf("duplicated %.3f, want 0.05", f)
	}
	// No impairment: now, once.
	if ts := s.schedule(impairment{}, t0.Add(time.Hour)); len(ts) != 1 || !ts[0].Equal(t0.Add(time.Hour)) {
		t.Errorf("no impairment: %v", ts)
	}
}

func TestClassify(t *testing.T) {
	ap := netip.MustParseAddrPort
	local := ap("10.0.1.2:5000")
	same := []netip.AddrPort{ap("11.77.0.11:5000"), ap("11.77.0.11:5000"), ap("11.77.0.11:5000")}
	for _, c := range []struct {
		f    natFindings
		want string
	}{
		{natFindings{}, "udp-blocked"},
		{natFindings{UDP: true, Local: ap("11.78.1.2:5000"), Mapped: []netip.AddrPort{ap("11.78.1.2:5000"), ap("11.78.1.2:5000"), ap("11.78.1.2:5000")}, FromOtherAddr: true, FromOtherPort: true}, "none"},
		{natFindings{UDP: true, Local: local, Mapped: same, FromOtherAddr: true, FromOtherPort: true}, "full-cone"},
		{natFindings{UDP: true, Local: local, Mapped: same, FromOtherPort: true}, "address-restricted"},
		{natFindings{UDP: true, Local: local, Mapped: same}, "port-restricted"},
		{natFindings{UDP: true, Local: local, Mapped: []netip.AddrPort{ap("11.77.0.11:5000"), ap("11.77.0.11:6001"), ap("11.77.0.11:5000")}}, "symmetric"},
	} {
		if got := classify(c.f); got != c.want {
			t.Errorf("%+v: %s, want %s", c.f, got, c.want)
		}
	}
}

func TestParseLogLine(t *testing.T) {
	l, ok := parseLogLine(`time=2026-11-25T21:27:36.701Z level=DEBUG msg=step table=7c21 step=2 hand=0 next_seat=2 next=hello`)
	if !ok || l.Msg != "step" || l.Fields["next_seat"] != "2" || l.T.UnixMilli()%1000 != 701 {
		t.Fatalf("%+v %v", l, ok)
	}
	l, ok = parseLogLine(`time=2026-11-25T21:27:41.477Z level=INFO msg=links table=7c21 members="Bk2Qdq=relayed/0s mJX9Cg=direct/1ms"`)
	if !ok || l.Fields["members"] != "Bk2Qdq=relayed/0s mJX9Cg=direct/1ms" {
		t.Fatalf("%+v %v", l, ok)
	}
	for _, bad := range []string{"", "okey: bot: the table cannot form", `time=x msg=a`, `time=0001-01-01T00:00:00Z msg=a`, `time=2026-11-25T21:27:41.477Z msg="unterminated`} {
		if _, ok := parseLogLine(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
}

// TestAnalyse: a made-up cell of 4 seats, one hand: hello, a move that
// draws, 3 shares, the discard. Bot i is seat i-1.
func TestAnalyse(t *testing.T) {
	dir := t.TempDir()
	base := time.Date(2026, 11, 25, 21, 0, 0, 0, time.UTC)
	peers := []string{"", "12D3KooWAAAAAA", "12D3KooWBBBBBB", "12D3KooWCCCCCC", "12D3KooWDDDDDD"}
	// message n: author, kind; applied by its author at author[n] ms, by the
	// others 100 ms (seat 3: 150 ms) later.
	msgs := []struct {
		seat int
		kind string
		at   int
	}{{0, "hello", 0}, {0, "shuffle", 100}, {1, "move", 1100}, {1, "share", 1300}, {2, "share", 1400}, {3, "share", 1500}, {1, "move", 1700}}
	for i := 1; i <= 4; i++ {
		seat := i - 1
		var b strings.Builder
		line := func(at int, msg string, kv string) {
			fmt.Fprintf(&b, "time=%s level=INFO msg=%s %s\n", base.Add(time.Duration(at)*time.Millisecond).Format(time.RFC3339Nano), msg, kv)
		}
		line(-3000, `"bot started"`, "peer="+peers[i])
		line(-1000, `"table ready"`, fmt.Sprintf("seat=%d players=4", seat))
		line(-999, "step", fmt.Sprintf("step=0 hand=0 next_seat=%d next=%s", msgs[0].seat, msgs[0].kind))
		for n, m := range msgs {
			at := m.at
			if m.seat != seat {
				at += 100
				if seat == 3 {
					at += 50
				}
			}
			next, nextKind := 0, "kind(0)"
			if n+1 < len(msgs) {
				next, nextKind = msgs[n+1].seat, msgs[n+1].kind
			}
			line(at, "step", fmt.Sprintf("step=%d hand=0 next_seat=%d next=%s", n+1, next, nextKind))
		}
		kinds := []string{"direct", "relayed", "via-member"}
		var links []string
		for j := 1; j <= 4; j++ {
			if j != i {
				links = append(links, peers[j][len(peers[j])-6:]+"="+kinds[(i+j)%3]+"/1ms")
			}
		}
		line(2000, "links", `members="`+strings.Join(links, " ")+`"`)
		// after the match the others leave: not the links it ended with
		line(2500, `"match over"`, "steps=7 hands=1")
		line(3000, "links", `members="`+strings.Repeat("XXXXXX=none/0s ", 3)+`"`)
		write := func(name, s string) {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		write(fmt.Sprintf("bot%d.log", i), b.String())
		write(fmt.Sprintf("exit.%d", i), "0\n")
		write(fmt.Sprintf("start.%d", i), fmt.Sprint(base.Add(-3*time.Second).UnixMilli()))
		write(fmt.Sprintf("sha.%d", i), "abc\n")
		write(fmt.Sprintf("verify.%d", i), "honest\nok\n")
	}
	r, err := analyse(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Formed || !r.Finished {
		t.Fatalf("formed %v finished %v", r.Formed, r.Finished)
	}
	if len(r.Joins) != 3 || r.Joins[0] != 2*time.Second {
		t.Errorf("joins %v", r.Joins)
	}
	// two moves, each by seat 1: seats 0 and 2 at +100 ms, seat 3 at +150
	if len(r.MoveMax) != 2 || r.MoveMax[0] != 150*time.Millisecond || len(r.MoveEach) != 6 {
		t.Errorf("moves %v %v", r.MoveMax, r.MoveEach)
	}
	// the hand starts when the shuffle is expected (hello applied at 0 by
	// seat 0) and its first move is applied by seat 1 at 1100
	if len(r.HandStart) != 1 || r.HandStart[0] != 1100*time.Millisecond {
		t.Errorf("hand start %v", r.HandStart)
	}
	// seat 1's draw at 1100, its last share applied at 1500+100
	if len(r.TurnOverhead) != 1 || r.TurnOverhead[0] != 500*time.Millisecond {
		t.Errorf("turn overhead %v", r.TurnOverhead)
	}
	// the longest wait: seat 0 applied the shuffle at 100 and the move at 1200
	if r.Gap != 1100*time.Millisecond {
		t.Errorf("gap %v", r.Gap)
	}
	// pair i-j: bot i's view, (i+j)%3
	want := "1-2:direct 1-3:relayed 1-4:via-member 2-3:via-member 2-4:direct 3-4:relayed"
	if got := strings.Join(r.Pairs, " "); got != want {
		t.Errorf("pairs %s, want %s", got, want)
	}
	if !strings.Contains(r.row(), "d2 r2 v2") {
		t.Errorf("row %s", r.row())
	}
}

// FuzzParseImpairment: any text is an error or an impairment within the
// bounds the parser promises.
func FuzzParseImpairment(f *testing.F) {
	for _, s := range []string{"", "delay=25ms jitter=5ms loss=0.5% dup=1%", "loss=1", "delay=10s,dup=0.1", "x=y", "delay=1h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		im, err := parseImpairment(s)
		if err != nil {
			return
		}
		if im.Delay < 0 || im.Delay > 10*time.Second || im.Jitter < 0 || im.Jitter > 10*time.Second ||
			!(im.Loss >= 0 && im.Loss <= 1) || !(im.Dup >= 0 && im.Dup <= 1) {
			t.Fatalf("%q: out of bounds: %+v", s, im)
		}
	})
}

// FuzzParseLogLine: any line parses or is refused, without a panic; a
// parsed line has its time.
func FuzzParseLogLine(f *testing.F) {
	for _, s := range []string{`time=2026-11-25T21:27:36.701Z level=DEBUG msg=step step=2`, `time=2026-11-25T21:27:41.477Z msg=links members="a=b/1ms c=d"`,
		`time=2026-11-25T21:27:41.477Z msg="x \" y"`, `msg="`, ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, ok := parseLogLine(s)
		if ok && l.T.IsZero() {
			t.Fatalf("%q: parsed without a time", s)
		}
	})
}
