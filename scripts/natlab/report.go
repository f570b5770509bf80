//go:build linux

package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// logLine is one slog text line of a bot's log.
type logLine struct {
	T      time.Time
	Msg    string
	Fields map[string]string
}

// parseLogLine reads `time=... level=... msg=... k=v k="v w"`; ok is false
// for a line that is not one.
func parseLogLine(s string) (logLine, bool) {
	l := logLine{Fields: map[string]string{}}
	for s != "" {
		s = strings.TrimLeft(s, " ")
		k, rest, ok := strings.Cut(s, "=")
		if !ok || k == "" || strings.ContainsAny(k, " \"") {
			break
		}
		var v string
		if strings.HasPrefix(rest, `"`) {
			// a quoted value: up to the next unescaped quote
			i := 1
			for i < len(rest) && rest[i] != '"' {
				if rest[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(rest) {
				return logLine{}, false
			}
			uq, err := strconv.Unquote(rest[:i+1])
			if err != nil {
				return logLine{}, false
			}
			v, s = uq, rest[i+1:]
		} else {
			v, s, _ = strings.Cut(rest, " ")
		}
		l.Fields[k] = v
	}
	t, err := time.Parse(time.RFC3339Nano, l.Fields["time"])
	if err != nil || t.IsZero() {
		return logLine{}, false
	}
	l.T, l.Msg = t, l.Fields["msg"]
	return l, true
}

// botLog is what one bot's log says.
type botLog struct {
	Peer     string
	Seat     int // -1: never ready
	Ready    time.Time
	Links    map[string]string // peer id suffix -> kind
	CantForm bool
	// FirstFail is the first "join by code failed" line (the joiner saying
	// why it has no seat yet).
	FirstFail time.Time
	// Applied[n] is when this bot applied message n; Author and Kind of
	// message n come from the step line before it.
	Applied map[int]time.Time
	Author  map[int]int
	Kind    map[int]string
	Hand    map[int]int
	// Sent[n] is when this bot sent message n (its debug "sent" line).
	Sent map[int]time.Time
	over bool // "match over" logged
}

func readBotLog(r io.Reader) (*botLog, error) {
	b := &botLog{Seat: -1, Links: map[string]string{}, Applied: map[int]time.Time{}, Author: map[int]int{}, Kind: map[int]string{}, Hand: map[int]int{},
		Sent: map[int]time.Time{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.Contains(line, "the table cannot form") || strings.Contains(line, "no table started within") {
			b.CantForm = true
		}
		l, ok := parseLogLine(line)
		if !ok {
			continue
		}
		switch l.Msg {
		case "join by code failed, retrying", "join failed":
			if b.FirstFail.IsZero() {
				b.FirstFail = l.T
			}
		case "bot started":
			b.Peer = l.Fields["peer"]
		case "table ready":
			if s, ok := l.Fields["seat"]; ok {
				b.Seat, _ = strconv.Atoi(s)
				b.Ready = l.T
			}
		case "match over":
			b.over = true
		case "links":
			if b.over {
				// after the match, the others may be gone already: the
				// links the match ended with are the last ones before
				continue
			}
			b.Links = map[string]string{}
			for _, m := range strings.Fields(l.Fields["members"]) {
				id, rest, _ := strings.Cut(m, "=")
				kind, _, _ := strings.Cut(rest, "/")
				b.Links[id] = kind
			}
		case "sent":
			if n, err := strconv.Atoi(l.Fields["step"]); err == nil {
				b.Sent[n] = l.T
			}
		case "step":
			n, err := strconv.Atoi(l.Fields["step"])
			if err != nil {
				continue
			}
			// step=n: n messages applied; message n-1 was applied now.
			if _, seen := b.Applied[n-1]; !seen && n > 0 {
				b.Applied[n-1] = l.T
			}
			if s, err := strconv.Atoi(l.Fields["next_seat"]); err == nil {
				b.Author[n] = s
				b.Kind[n] = l.Fields["next"]
			}
			if h, err := strconv.Atoi(l.Fields["hand"]); err == nil {
				b.Hand[n] = h
			}
		}
	}
	return b, sc.Err()
}

// cellResult is one row of the matrix.
type cellResult struct {
	Types, Transport, Mode, Impair, Fault string
	Formed                                bool
	SaidSo                                time.Duration // joiners' longest time to exit 4 (not formed)
	FirstSaid                             time.Duration // not formed: the first joiner's first "join failed" line
	Silent                                bool          // not formed and someone ran to the timeout
	Finished                              bool          // every exit 0, identical verified transcripts
	Exits                                 []int
	Pairs                                 []string        // "i-j:kind" for the 6 pairs
	Joins                                 []time.Duration // joiner start to table ready
	MoveMax                               []time.Duration // per move: until the last seat applied it
	MoveEach                              []time.Duration // per move and receiving seat
	HandStart                             []time.Duration // per hand: first shuffle expected to first move applied by its author
	TurnOverhead                          []time.Duration // per draw: draw applied to the drawer's last share applied
	Gap                                   time.Duration   // the longest wait of any seat between two messages it applied (a stall)
}

func readInt(path string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return v, err == nil
}

func readText(path string) string {
	b, _ := os.ReadFile(path)
	return strings.TrimSpace(string(b))
}

// analyse reads a cell's directory.
func analyse(dir string) (*cellResult, error) {
	r := &cellResult{Types: readText(filepath.Join(dir, "types")), Transport: readText(filepath.Join(dir, "transport")),
		Mode: readText(filepath.Join(dir, "mode")), Impair: readText(filepath.Join(dir, "impair")), Fault: readText(filepath.Join(dir, "fault"))}
	bots := make([]*botLog, 5)
	for i := 1; i <= 4; i++ {
		f, err := os.Open(filepath.Join(dir, fmt.Sprintf("bot%d.log", i)))
		if err != nil {
			return nil, err
		}
		b, err := readBotLog(f)
		f.Close()
		if err != nil {
			return nil, err
		}
		bots[i] = b
	}
	r.Formed = true
	r.Finished = true
	var sha string
	for i := 1; i <= 4; i++ {
		e, ok := readInt(filepath.Join(dir, fmt.Sprintf("exit.%d", i)))
		if !ok {
			e = -1
		}
		r.Exits = append(r.Exits, int(e))
		if bots[i].Seat < 0 {
			r.Formed = false
		}
		if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("timeout.%d", i))); err == nil {
			r.Silent = true
		}
		s := readText(filepath.Join(dir, fmt.Sprintf("sha.%d", i)))
		if e != 0 || s == "" || (sha != "" && s != sha) || !strings.HasSuffix(readText(filepath.Join(dir, fmt.Sprintf("verify.%d", i))), "ok") {
			r.Finished = false
		}
		sha = s
		start, ok1 := readInt(filepath.Join(dir, fmt.Sprintf("start.%d", i)))
		end, ok2 := readInt(filepath.Join(dir, fmt.Sprintf("end.%d", i)))
		if i > 1 && ok1 && !bots[i].Ready.IsZero() {
			r.Joins = append(r.Joins, bots[i].Ready.Sub(time.UnixMilli(start)))
		}
		if i > 1 && ok1 && !bots[i].FirstFail.IsZero() && !r.Formed {
			d := bots[i].FirstFail.Sub(time.UnixMilli(start))
			if r.FirstSaid == 0 || d < r.FirstSaid {
				r.FirstSaid = d
			}
		}
		if i > 1 && ok1 && ok2 && e == 4 {
			r.SaidSo = max(r.SaidSo, time.Duration(end-start)*time.Millisecond)
		}
	}
	if !r.Formed && r.SaidSo == 0 {
		r.Silent = true
	}
	// Pairs, as the lower seat's bot saw them at its last links line (or
	// the other's, when the first logged none).
	suffix := func(p string) string {
		if len(p) < 6 {
			return p
		}
		return p[len(p)-6:]
	}
	for i := 1; i <= 4; i++ {
		for j := i + 1; j <= 4; j++ {
			k := bots[i].Links[suffix(bots[j].Peer)]
			if k2 := bots[j].Links[suffix(bots[i].Peer)]; k == "" || (k2 == "direct" && k != "direct") {
				k = k2
			}
			if k == "" {
				k = "?"
			}
			r.Pairs = append(r.Pairs, fmt.Sprintf("%d-%d:%s", i, j, k))
		}
	}
	if !r.Formed {
		return r, nil
	}
	bySeat := map[int]*botLog{}
	for i := 1; i <= 4; i++ {
		bySeat[bots[i].Seat] = bots[i]
	}
	for _, b := range bySeat {
		var prev time.Time
		for n := 0; ; n++ {
			t, ok := b.Applied[n]
			if !ok {
				break
			}
			if !prev.IsZero() {
				r.Gap = max(r.Gap, t.Sub(prev))
			}
			prev = t
		}
	}
	ref := bots[1]
	last := -1
	for n := range ref.Applied {
		last = max(last, n)
	}
	handSeen := map[int]bool{}
	var handFirst time.Time
	for n := 0; n <= last; n++ {
		kind, author := ref.Kind[n], ref.Author[n]
		a := bySeat[author]
		if a == nil {
			continue
		}
		at, ok := a.Applied[n]
		if !ok {
			continue
		}
		if kind == "shuffle" && author == 0 && !handSeen[ref.Hand[n]] {
			handSeen[ref.Hand[n]] = true
			// the hand starts when message n is expected: message n-1 applied
			// by its author's... the earliest seat.
			handFirst = time.Time{}
			for _, b := range bySeat {
				if t, ok := b.Applied[n-1]; ok && (handFirst.IsZero() || t.Before(handFirst)) {
					handFirst = t
				}
			}
		}
		if kind != "move" {
			continue
		}
		if !handFirst.IsZero() {
			r.HandStart = append(r.HandStart, at.Sub(handFirst))
			handFirst = time.Time{}
		}
		var worst time.Duration
		complete := true
		for s, b := range bySeat {
			if s == author {
				continue
			}
			t, ok := b.Applied[n]
			if !ok {
				complete = false
				continue
			}
			d := max(t.Sub(at), 0)
			r.MoveEach = append(r.MoveEach, d)
			worst = max(worst, d)
		}
		if complete {
			r.MoveMax = append(r.MoveMax, worst)
		}
		// a draw: shares follow, then the same seat's discard
		if ref.Kind[n+1] == "share" {
			m := n + 1
			for ref.Kind[m+1] == "share" {
				m++
			}
			if t, ok := a.Applied[m]; ok && ref.Author[m+1] == author && ref.Kind[m+1] == "move" {
				r.TurnOverhead = append(r.TurnOverhead, t.Sub(at))
			}
		}
	}
	return r, nil
}

func ms(d time.Duration) string {
	return strconv.FormatInt(d.Round(time.Millisecond).Milliseconds(), 10)
}

func secs(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) }

// row formats a result as a line of the table.
func (r *cellResult) row() string {
	formed := "no"
	switch {
	case r.Formed:
		formed = "yes"
	case r.SaidSo > 0 && !r.Silent:
		formed = "no,exit4@" + secs(r.SaidSo) + "s"
		if r.FirstSaid > 0 {
			formed = "no,why@" + secs(r.FirstSaid) + "s,exit4@" + secs(r.SaidSo) + "s"
		}
	case r.Silent:
		formed = "no,SILENT"
	}
	match := "no"
	if r.Finished {
		match = "verified"
	}
	count := map[string]int{}
	for _, p := range r.Pairs {
		_, k, _ := strings.Cut(p, ":")
		count[k]++
	}
	links := fmt.Sprintf("d%d r%d v%d", count["direct"], count["relayed"], count["via-member"])
	if n := count["none"] + count["?"]; n > 0 {
		links += fmt.Sprintf(" n%d", n)
	}
	joins := "-"
	if len(r.Joins) > 0 {
		joins = secs(slices.Max(r.Joins))
	}
	prop := "-"
	if len(r.MoveMax) > 0 {
		prop = fmt.Sprintf("%s/%s/%s (%d)", ms(quantile(r.MoveMax, 50)), ms(quantile(r.MoveMax, 95)), ms(slices.Max(r.MoveMax)), len(r.MoveMax))
	}
	hand := "-"
	if len(r.HandStart) > 0 {
		hand = secs(quantile(r.HandStart, 50))
	}
	turn := "-"
	if len(r.TurnOverhead) > 0 {
		turn = fmt.Sprintf("%s/%s", ms(quantile(r.TurnOverhead, 50)), ms(quantile(r.TurnOverhead, 95)))
	}
	gap := "-"
	if r.Gap > 0 {
		gap = secs(r.Gap)
	}
	exits := strings.Trim(strings.ReplaceAll(fmt.Sprint(r.Exits), " ", ","), "[]")
	return fmt.Sprintf(rowFormat, r.Types, r.Transport, r.Mode, r.Impair, formed, match, links, joins, prop, hand, turn, gap, exits, strings.Join(r.Pairs, " "))
}

const rowFormat = "%-27s %-4s %-7s %-27s %-24s %-8s %-14s %-6s %-24s %-6s %-11s %-5s %-8s %s"

func header() string {
	return fmt.Sprintf(rowFormat, "seats (1 creates)", "tr", "relay", "impairment (each home link)", "formed", "match", "links d/r/v", "join s",
		"move ms p50/p95/max (n)", "hand s", "turn ms", "gap s", "exits", "pairs")
}

func runReport(args []string) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	head := fs.Bool("header", false, "print the header line only")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *head {
		fmt.Println(header())
		return nil
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("want one cell directory")
	}
	r, err := analyse(fs.Arg(0))
	if err != nil {
		return err
	}
	// the raw figures, for natlab summary
	var b strings.Builder
	put := func(name string, ds []time.Duration) {
		fmt.Fprintf(&b, "%s", name)
		for _, d := range ds {
			fmt.Fprintf(&b, " %d", d.Microseconds())
		}
		b.WriteByte('\n')
	}
	put("joins", r.Joins)
	put("move_max", r.MoveMax)
	put("move_each", r.MoveEach)
	put("hand_start", r.HandStart)
	put("turn", r.TurnOverhead)
	put("gap", []time.Duration{r.Gap})
	fmt.Fprintf(&b, "pairs %s\nformed %v\nfinished %v\nsaid_so %d\nfirst_said %d\nsilent %v\n", strings.Join(r.Pairs, " "), r.Formed, r.Finished, r.SaidSo.Microseconds(), r.FirstSaid.Microseconds(), r.Silent)
	if err := os.WriteFile(filepath.Join(fs.Arg(0), "figures.txt"), []byte(b.String()), 0o644); err != nil {
		return err
	}
	fmt.Println(r.row())
	return nil
}

// runSummary aggregates the figures.txt of cell directories: the issue's
// figures over every cell given.
func runSummary(args []string) error {
	fs := flag.NewFlagSet("summary", flag.ContinueOnError)
	if err := fs.Parse(args); err != nil {
		return err
	}
	var joins, moveMax, hand, turn []time.Duration
	cells, formed, finished, silent := 0, 0, 0, 0
	var saidSo, firstSaid []time.Duration
	pairs := map[string]int{}    // kind -> count, pairs of cone homes
	pairsAll := map[string]int{} // kind -> count, every pair
	for _, dir := range fs.Args() {
		b, err := os.ReadFile(filepath.Join(dir, "figures.txt"))
		if err != nil {
			continue
		}
		cells++
		types := strings.Split(readText(filepath.Join(dir, "types")), ",")
		if !strings.Contains(string(b), "\nformed true\n") {
			types = nil // links only of tables that formed
		}
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) == 0 {
				continue
			}
			us := func() []time.Duration {
				var ds []time.Duration
				for _, v := range f[1:] {
					n, err := strconv.ParseInt(v, 10, 64)
					if err == nil {
						ds = append(ds, time.Duration(n)*time.Microsecond)
					}
				}
				return ds
			}
			switch f[0] {
			case "joins":
				joins = append(joins, us()...)
			case "move_max":
				moveMax = append(moveMax, us()...)
			case "hand_start":
				hand = append(hand, us()...)
			case "turn":
				turn = append(turn, us()...)
			case "formed":
				if f[1] == "true" {
					formed++
				}
			case "finished":
				if f[1] == "true" {
					finished++
				}
			case "silent":
				if f[1] == "true" {
					silent++
				}
			case "said_so":
				if d := us(); len(d) == 1 && d[0] > 0 {
					saidSo = append(saidSo, d[0])
				}
			case "first_said":
				if d := us(); len(d) == 1 && d[0] > 0 {
					firstSaid = append(firstSaid, d[0])
				}
			case "pairs":
				for _, p := range f[1:] {
					ij, kind, _ := strings.Cut(p, ":")
					var i, j int
					if _, err := fmt.Sscanf(ij, "%d-%d", &i, &j); err != nil || len(types) != 4 {
						continue
					}
					pairsAll[kind]++
					cone := func(t string) bool { return t == "full" || t == "addr" || t == "port" }
					if cone(types[i-1]) && cone(types[j-1]) {
						pairs[kind]++
					}
				}
			}
		}
	}
	q := func(name string, ds []time.Duration) {
		if len(ds) == 0 {
			fmt.Printf("%-38s none\n", name)
			return
		}
		fmt.Printf("%-38s n=%d p50=%v p95=%v max=%v\n", name, len(ds), quantile(ds, 50).Round(time.Millisecond),
			quantile(ds, 95).Round(time.Millisecond), slices.Max(ds).Round(time.Millisecond))
	}
	fmt.Printf("cells %d: formed %d, finished verified %d, silent %d\n", cells, formed, finished, silent)
	q("join to ready (each joiner)", joins)
	q("move to every seat (each move)", moveMax)
	q("hand start to first move", hand)
	q("turn overhead (draw to last share)", turn)
	q("not formed: first reason logged", firstSaid)
	q("not formed: exit 4 after", saidSo)
	show := func(name string, m map[string]int) {
		n := 0
		for _, v := range m {
			n += v
		}
		fmt.Printf("%-38s n=%d direct=%d relayed=%d via-member=%d other=%d\n", name, n, m["direct"], m["relayed"], m["via-member"],
			n-m["direct"]-m["relayed"]-m["via-member"])
	}
	show("pairs of cone homes (tables formed)", pairs)
	show("every pair (tables formed)", pairsAll)
	return nil
}
