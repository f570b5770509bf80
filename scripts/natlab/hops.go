//go:build linux

package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// A chainHop is one message of a hand's lock and re-key chain: from its
// author's send until the chain's next author applied it (Transit: the
// links, the transport and that seat's check), then until that author
// sent its own message (Build; -1 when the next message is not its own
// chain message or its send is not in the log).
type chainHop struct {
	Step    int
	Kind    string
	Seat    int
	Transit time.Duration
	Build   time.Duration
}

// A handRound is the messages of one kind after the chain (the open round,
// the deal round): from the earliest seat's applying the message before
// them until the last seat applied the last of them.
type handRound struct {
	Kind   string
	Lo, Hi int
	Took   time.Duration
}

// handHops is where one hand's start went, as report's HandStart counts
// it: from the first lock expected (the message before it applied by the
// earliest seat) to the first move applied by its author.
type handHops struct {
	Hand   int
	Start  time.Duration
	Chain  []chainHop
	Rounds []handRound
}

// hops reads a hand's start hop by hop from the four bots' logs (each with
// its seat from "table ready", its debug step and sent lines).
func hops(bots []*botLog) ([]handHops, error) {
	bySeat := map[int]*botLog{}
	for _, b := range bots {
		if b.Seat < 0 {
			return nil, fmt.Errorf("a bot never took a seat")
		}
		bySeat[b.Seat] = b
	}
	ref := bots[0]
	steps := make([]int, 0, len(ref.Kind))
	for n := range ref.Kind {
		steps = append(steps, n)
	}
	slices.Sort(steps)
	earliest := func(n int) (time.Time, bool) {
		var t time.Time
		for _, b := range bots {
			if a, ok := b.Applied[n]; ok && (t.IsZero() || a.Before(t)) {
				t = a
			}
		}
		return t, !t.IsZero()
	}
	latest := func(n int) (time.Time, bool) {
		var t time.Time
		for _, b := range bots {
			if a, ok := b.Applied[n]; ok && a.After(t) {
				t = a
			}
		}
		return t, !t.IsZero()
	}
	chained := func(k string) bool { return k == "shuffle" || k == "rekey" }
	var out []handHops
	for _, st := range steps {
		if ref.Kind[st] != "shuffle" || ref.Author[st] != 0 || ref.Kind[st-1] == "shuffle" {
			continue
		}
		t0, ok := earliest(st - 1)
		if !ok {
			continue
		}
		h := handHops{Hand: ref.Hand[st]}
		k := st
		for ; chained(ref.Kind[k]); k++ {
			author, next := bySeat[ref.Author[k]], bySeat[ref.Author[k+1]]
			if author == nil || next == nil {
				break
			}
			sent, ok1 := author.Sent[k]
			got, ok2 := next.Applied[k]
			if !ok1 || !ok2 {
				break
			}
			hp := chainHop{Step: k, Kind: ref.Kind[k], Seat: ref.Author[k], Transit: got.Sub(sent), Build: -1}
			if own, ok := next.Sent[k+1]; ok && chained(ref.Kind[k+1]) {
				hp.Build = own.Sub(got)
			}
			h.Chain = append(h.Chain, hp)
		}
		first := k
		for ; ref.Kind[k] != "" && ref.Kind[k] != "move"; k++ {
		}
		if ref.Kind[k] != "move" {
			continue
		}
		moved, ok := bySeat[ref.Author[k]].Applied[k]
		if !ok {
			continue
		}
		h.Start = moved.Sub(t0)
		prev, _ := earliest(first - 1)
		for lo := first; lo < k; {
			hi := lo
			for hi+1 < k && ref.Kind[hi+1] == ref.Kind[lo] {
				hi++
			}
			end, ok := latest(hi)
			if !ok {
				break
			}
			h.Rounds = append(h.Rounds, handRound{Kind: ref.Kind[lo], Lo: lo, Hi: hi, Took: end.Sub(prev)})
			prev, lo = end, hi+1
		}
		out = append(out, h)
	}
	return out, nil
}

// runHops prints where each hand's start went in a cell's work directory
// (a matrix run with KEEP=1: the bots log at debug level).
func runHops(args []string) error {
	fs := flag.NewFlagSet("hops", flag.ContinueOnError)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("usage: natlab hops DIR")
	}
	var bots []*botLog
	for i := 1; i <= 4; i++ {
		f, err := os.Open(filepath.Join(fs.Arg(0), fmt.Sprintf("bot%d.log", i)))
		if err != nil {
			return err
		}
		b, err := readBotLog(f)
		f.Close()
		if err != nil {
			return err
		}
		bots = append(bots, b)
	}
	hs, err := hops(bots)
	if err != nil {
		return err
	}
	writeHops(os.Stdout, hs)
	return nil
}

func writeHops(w io.Writer, hs []handHops) {
	ms := func(d time.Duration) string {
		if d < 0 {
			return "-"
		}
		return fmt.Sprint(d.Round(time.Millisecond).Milliseconds())
	}
	for _, h := range hs {
		fmt.Fprintf(w, "hand %d: start %s ms\n", h.Hand, ms(h.Start))
		for _, c := range h.Chain {
			fmt.Fprintf(w, "  step %4d %-7s seat %d: %4s ms to the next seat's applying it, %3s ms to its own\n", c.Step, c.Kind, c.Seat, ms(c.Transit), ms(c.Build))
		}
		for _, r := range h.Rounds {
			fmt.Fprintf(w, "  steps %d-%d %s round: %s ms\n", r.Lo, r.Hi, r.Kind, ms(r.Took))
		}
	}
}
