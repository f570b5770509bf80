//go:build linux

package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestHops: a simulated hand's logs (bot i at seat (i+1)%4, so that the
// seats come from the logs, not the bots' numbers): every chain message
// reaches the next author 50 ms after its send, which builds its own in
// 20 ms; the open and deal rounds' messages are sent 5 ms after the round
// before ended at their authors and reach the others 50 ms later, seat 2
// 30 ms later still. hops gives each hop's transit and build, the rounds,
// and the hand's start as report counts it.
func TestHops(t *testing.T) {
	base := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	type msg struct {
		seat int
		kind string
	}
	var msgs []msg
	for _, k := range []string{"hello", "shuffle", "rekey", "open", "deal"} {
		for s := range 4 {
			msgs = append(msgs, msg{s, k})
		}
	}
	msgs = append(msgs, msg{1, "move"})
	// applied[n][seat], sent[n], in ms
	applied := make([][4]int, len(msgs))
	sent := make([]int, len(msgs))
	lat := func(seat int) int {
		if seat == 2 {
			return 80
		}
		return 50
	}
	for n, m := range msgs {
		switch m.kind {
		case "hello":
			sent[n] = 10 * n
		case "shuffle", "rekey":
			sent[n] = applied[n-1][m.seat] + 20
		case "move":
			sent[n] = applied[n-1][m.seat] + 5
		default: // a round: every author answers the message before the round
			lo := n - n%4
			sent[n] = applied[lo-1][m.seat] + 5
		}
		for s := range 4 {
			applied[n][s] = sent[n] + lat(s)
			if s == m.seat {
				applied[n][s] = sent[n]
			}
		}
	}
	bots := make([]*botLog, 4)
	for i := range bots {
		seat := (i + 1) % 4
		var b strings.Builder
		line := func(at int, m, kv string) {
			fmt.Fprintf(&b, "time=%s level=DEBUG msg=%s %s\n", base.Add(time.Duration(at)*time.Millisecond).Format(time.RFC3339Nano), m, kv)
		}
		line(-1000, `"table ready"`, fmt.Sprintf("seat=%d players=4", seat))
		line(-999, "step", "step=0 hand=0 next_seat=0 next=hello")
		for n, m := range msgs {
			if m.seat == seat {
				line(sent[n], "sent", fmt.Sprintf("component=table step=%d kind=%s", n, m.kind))
			}
			next, kind := 0, "move"
			if n+1 < len(msgs) {
				next, kind = msgs[n+1].seat, msgs[n+1].kind
			}
			line(applied[n][seat], "step", fmt.Sprintf("step=%d hand=0 next_seat=%d next=%s", n+1, next, kind))
		}
		var err error
		if bots[i], err = readBotLog(strings.NewReader(b.String())); err != nil {
			t.Fatal(err)
		}
	}
	hs, err := hops(bots)
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != 1 || len(hs[0].Chain) != 8 || len(hs[0].Rounds) != 2 {
		t.Fatalf("hands %+v", hs)
	}
	h := hs[0]
	for i, c := range h.Chain {
		wantBuild := 20 * time.Millisecond
		if i == 7 {
			wantBuild = -1 // the open round follows: not a chain message
		}
		wantLat := time.Duration(lat((c.Seat+1)%4)) * time.Millisecond
		if c.Step != 4+i || c.Seat != i%4 || c.Transit != wantLat || c.Build != wantBuild {
			t.Errorf("hop %d: %+v, want transit %v build %v", i, c, wantLat, wantBuild)
		}
	}
	// from the earliest applying of hello 3 (its author, at 30 ms) to the
	// move applied by its author
	if want := time.Duration(applied[20][1]-30) * time.Millisecond; h.Start != want {
		t.Errorf("start %v, want %v", h.Start, want)
	}
	// the open round: from the last re-key's earliest applying (its
	// author's send) until seat 2 applied the last open message
	if r := h.Rounds[0]; r.Kind != "open" || r.Lo != 12 || r.Hi != 15 || r.Took != time.Duration(applied[15][2]-sent[11])*time.Millisecond {
		t.Errorf("open round %+v", r)
	}
	if r := h.Rounds[1]; r.Kind != "deal" || r.Lo != 16 || r.Hi != 19 || r.Took != time.Duration(applied[19][2]-applied[15][2])*time.Millisecond {
		t.Errorf("deal round %+v", r)
	}
	var out strings.Builder
	writeHops(&out, hs)
	if !strings.Contains(out.String(), "step   11 rekey   seat 3:   50 ms to the next seat's applying it,   - ms to its own") {
		t.Errorf("written:\n%s", out.String())
	}
}
