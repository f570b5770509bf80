package tournament

import (
	"strings"
	"testing"
)

// finish fills finished matches for round's tables as the check computes
// them (seat 0 wins, as classicResult).
func (w *world) finish(round int) *Report {
	rep := Check(w.records, w.matches)
	if len(rep.Rounds) < round || rep.Rounds[round-1].Draw == nil {
		w.t.Fatalf("round %d not drawn: %+v", round, rep.Problems)
	}
	for _, tb := range rep.Rounds[round-1].Tables {
		m := &Match{TableID: tb.ID, Ruleset: w.ruleset, Silent: -1, Cheater: -1}
		for i, s := range tb.Seats {
			m.Keys = append(m.Keys, w.roster[s])
			m.Signed = append(m.Signed, true)
			m.Scores = append(m.Scores, []int{20, 10, 5, 0}[i])
			m.Places = append(m.Places, i+1)
		}
		m.Chain = fakeChain(tb.ID)
		w.matches[tb.Ref] = m
	}
	return w.fix(round)
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func without(s []int, x ...int) []int {
	var out []int
	for _, v := range s {
		if !contains(x, v) {
			out = append(out, v)
		}
	}
	return out
}

func pointsOf(rep *Report) map[int]int {
	out := map[int]int{}
	for _, s := range rep.Final {
		out[s.Player] = s.Points
	}
	return out
}

// TestCloseWithoutReveal: a player that committed and never revealed; the
// creator closes the attempt keeping the three that revealed; they draw
// again and play at a table of three. The silent player is absent: 0
// points, last in the tie-break, no one named, status 3, standings defined.
func TestCloseWithoutReveal(t *testing.T) {
	w := newWorld(t, 4, "swiss:rounds=2", "classic:points=2")
	all := seq(4)
	w.attempt(1, 1, all, all, without(all, 2), true)
	w.attempt(1, 2, without(all, 2), without(all, 2), without(all, 2), true)
	rep := w.finish(1)
	rd := rep.Rounds[0]
	if rd.Attempt != 2 || fmtInts(rd.Absent) != "[2]" || len(rd.Draw) != 3 || len(rd.Tables) != 1 || len(rd.Tables[0].Seats) != 3 || len(rd.Byes) != 0 {
		t.Fatalf("round 1: %+v", rd)
	}
	if rd.Standings == nil || rd.Standings[3].Player != 2 || rd.Standings[3].Points != 0 || rd.Standings[3].DrawPos != 3 {
		t.Fatalf("standings %+v", rd.Standings)
	}
	if rep.Status != StatusUnfinished || strings.Join(named(rep, "absent"), ",") != "-" {
		t.Fatalf("status %d %+v", rep.Status, rep.Problems)
	}
	if len(named(rep, "late-reveal")) != 0 {
		t.Fatalf("a late reveal without one: %+v", rep.Problems)
	}
	// It comes back in round 2: a draw of all four.
	w.drawRound(2)
	rep = w.finish(2)
	if rep.Final == nil || len(rep.Rounds[1].Draw) != 4 || rep.Rounds[1].Absent != nil {
		t.Fatalf("round 2: %+v %+v", rep.Rounds[1], rep.Problems)
	}
	for _, p := range rep.Problems {
		if p.Status == StatusCheating {
			t.Fatalf("someone named: %+v", p)
		}
	}
}

// TestCloseWithoutCommitment: a player that never committed; the close
// keeps the seven that did (it cites no commitments hash); the second
// attempt seats them at tables of 4 and 3.
func TestCloseWithoutCommitment(t *testing.T) {
	w := newWorld(t, 8, "swiss:rounds=1", "classic:points=2")
	all := seq(8)
	c := w.attempt(1, 1, all, without(all, 5), nil, true)
	if c.Commits != ([32]byte{}) || fmtInts(c.Kept) != fmtInts(without(all, 5)) {
		t.Fatalf("close %+v", c)
	}
	w.attempt(1, 2, without(all, 5), without(all, 5), without(all, 5), true)
	rep := w.finish(1)
	rd := rep.Rounds[0]
	if fmtInts(rd.Absent) != "[5]" || len(rd.Tables) != 2 || len(rd.Tables[0].Seats) != 4 || len(rd.Tables[1].Seats) != 3 {
		t.Fatalf("round 1: %+v", rd)
	}
	if rep.Final == nil || pointsOf(rep)[5] != 0 || rep.Status != StatusUnfinished {
		t.Fatalf("status %d final %v %+v", rep.Status, rep.Final, rep.Problems)
	}
}

// TestByes: players no table can seat get a bye, the second place's points
// (9.5): six players with one absent leave five, a table of four and one
// bye; german (four seats only) with eight and one absent seats four, three
// byes; two players left seat none.
func TestByes(t *testing.T) {
	for _, c := range []struct {
		n       int
		ruleset string
		absent  []int
		tables  string
		byes    int
	}{
		{6, "classic:points=2", []int{0}, "[4]", 1},
		{8, "german:no-partnerships", []int{3}, "[4]", 3},
		{4, "classic:points=2", []int{1, 2}, "[]", 2},
		{7, "classic:points=2", []int{6}, "[3 3]", 0},
	} {
		w := newWorld(t, c.n, "swiss:rounds=1", c.ruleset)
		all := seq(c.n)
		rest := without(all, c.absent...)
		w.attempt(1, 1, all, all, rest, true)
		w.attempt(1, 2, rest, rest, rest, true)
		rep := w.finish(1)
		rd := rep.Rounds[0]
		var sizes []int
		for _, tb := range rd.Tables {
			sizes = append(sizes, len(tb.Seats))
		}
		if fmtInts(sizes) != c.tables || len(rd.Byes) != c.byes || rep.Final == nil {
			t.Fatalf("%d %s: tables %v byes %v %+v", c.n, c.ruleset, sizes, rd.Byes, rep.Problems)
		}
		pts := pointsOf(rep)
		for _, b := range rd.Byes {
			if pts[b] != rep.Format.Points[1] {
				t.Errorf("%d %s: bye %d scores %d", c.n, c.ruleset, b, pts[b])
			}
		}
		// The byes are the last of the round's order (round 1: the draw).
		if c.byes > 0 && fmtInts(rd.Byes) != fmtInts(rd.Draw[len(rd.Draw)-c.byes:]) {
			t.Errorf("%d %s: byes %v, draw %v", c.n, c.ruleset, rd.Byes, rd.Draw)
		}
		for _, a := range c.absent {
			if pts[a] != 0 {
				t.Errorf("%d %s: absent %d scores %d", c.n, c.ruleset, a, pts[a])
			}
		}
	}
}

// TestEveryoneOut: a close that keeps no one ends the round's draw with no
// tables; the standings are defined, everyone at 0.
func TestEveryoneOut(t *testing.T) {
	w := newWorld(t, 4, "swiss:rounds=1", "classic:points=2")
	w.attempt(1, 1, seq(4), nil, nil, true)
	rep := Check(w.records, w.matches)
	if rep.Final == nil || len(rep.Rounds[0].Absent) != 4 || rep.Rounds[0].Tables != nil {
		t.Fatalf("%+v %+v", rep.Rounds, rep.Problems)
	}
}

// TestDrawWaitsForClose: every reveal in but no close: the draw does not
// stand yet (a participant could otherwise start a table the creator's
// close then voids).
func TestDrawWaitsForClose(t *testing.T) {
	w := newWorld(t, 4, "swiss:rounds=1", "classic")
	w.attempt(1, 1, seq(4), seq(4), seq(4), false)
	rep := Check(w.records, nil)
	if rep.Status != StatusUnfinished || rep.Rounds[0].Draw != nil || len(named(rep, "silent")) != 1 {
		t.Fatalf("status %d %+v", rep.Status, rep.Problems)
	}
	if rep.Rounds[0].Attempt != 1 || len(rep.Rounds[0].Active) != 4 {
		t.Fatalf("round %+v", rep.Rounds[0])
	}
}

// TestCloseCheats: a creator's close that contradicts signed records names
// the creator; one it did not sign changes nothing.
func TestCloseCheats(t *testing.T) {
	all := seq(4)
	resign := func(w *world, mut func(c *Record)) {
		for i, raw := range w.records {
			if r, _ := Decode(raw); r.Kind == KindClose {
				mut(r)
				w.records[i] = sign(t, r, w.cpriv)
			}
		}
	}
	for name, c := range map[string]struct {
		mut  func(w *world)
		rule string
	}{
		"two closes for one attempt": {func(w *world) {
			w.attempt(1, 1, all, all, without(all, 1), true)
			c := &Record{Kind: KindClose, Tournament: w.tid, Signer: w.cpub, Round: 1, Attempt: 1, Kept: []int{0, 2}}
			w.records = append(w.records, sign(t, c, w.cpriv))
		}, "equivocation"},
		"a standing close with another seed": {func(w *world) {
			w.drawRound(1)
			resign(w, func(c *Record) { c.Seed[0] ^= 1 })
		}, "close"},
		"a close keeping a player the attempt lost": {func(w *world) {
			w.attempt(1, 1, all, all, without(all, 1), true)
			w.attempt(1, 2, without(all, 1), without(all, 1), without(all, 1), true)
			resign(w, func(c *Record) {
				if c.Attempt == 2 {
					c.Kept = all
				}
			})
		}, "close"},
		"a close leaving players out that also cites a seed": {func(w *world) {
			w.attempt(1, 1, all, all, without(all, 1), true)
			resign(w, func(c *Record) { c.Seed = [32]byte{9} })
		}, "close"},
		"a close citing other commitments": {func(w *world) {
			w.attempt(1, 1, all, all, without(all, 1), true)
			resign(w, func(c *Record) { c.Commits[3] ^= 1 })
		}, "close"},
	} {
		w := newWorld(t, 4, "swiss:rounds=1", "classic")
		c.mut(w)
		rep := Check(w.records, nil)
		if rep.Status != StatusCheating || strings.Join(named(rep, c.rule), ",") != "cup" {
			t.Errorf("%s: status %d %+v", name, rep.Status, rep.Problems)
		}
	}
	// A close signed by a player: damaged, and the draw still waits.
	w := newWorld(t, 4, "swiss:rounds=1", "classic")
	w.attempt(1, 1, all, all, without(all, 1), false)
	k := w.roster[0]
	c := &Record{Kind: KindClose, Tournament: w.tid, Signer: k, Round: 1, Attempt: 1, Kept: []int{0, 2, 3}}
	w.records = append(w.records, sign(t, c, w.privs[k]))
	rep := Check(w.records, nil)
	if rep.Status != StatusDamaged || rep.Rounds[0].Draw != nil || len(named(rep, "silent")) != 1 {
		t.Fatalf("a player's close: status %d %+v", rep.Status, rep.Problems)
	}
	// A standing close while a reveal is missing from the folder:
	// unfinished, no one named.
	w = newWorld(t, 4, "swiss:rounds=1", "classic")
	w.drawRound(1)
	var recs [][]byte
	dropped := false
	for _, raw := range w.records {
		if r, _ := Decode(raw); r.Kind == KindReveal && !dropped {
			dropped = true
			continue
		}
		recs = append(recs, raw)
	}
	rep = Check(recs, nil)
	if rep.Status != StatusUnfinished || rep.Rounds[0].Draw != nil {
		t.Fatalf("missing reveal: status %d %+v", rep.Status, rep.Problems)
	}
}

// TestLaterAttemptIgnoresEarlierOpenings: the draw that stands comes from
// its own attempt's fresh openings only: whatever was revealed in a failed
// attempt (all a withholder saw before it withheld) does not enter it, so
// the same players drawing again get the same draw whether the failed
// attempt had all but one reveal or none.
func TestLaterAttemptIgnoresEarlierOpenings(t *testing.T) {
	all := seq(4)
	draw := func(reveal []int) string {
		w := newWorld(t, 4, "swiss:rounds=1", "classic:points=2")
		w.attempt(1, 1, all, without(all, 3), reveal, true)
		w.attempt(1, 2, without(all, 3), without(all, 3), without(all, 3), true)
		rep := Check(w.records, nil)
		if rep.Rounds[0].Draw == nil {
			t.Fatalf("%+v", rep.Problems)
		}
		return fmtInts(rep.Rounds[0].Draw)
	}
	if a, b := draw(nil), draw([]int{0, 1, 2}); a != b {
		t.Fatalf("a later attempt's draw depends on the failed attempt: %s, %s", a, b)
	}
}

// TestLateReveal: a reveal in the folder from a player the creator's close
// left out is said (the creator may have received it too late), never
// named: no record proves when the creator got it.
func TestLateReveal(t *testing.T) {
	w := newWorld(t, 4, "swiss:rounds=1", "classic:points=2")
	all := seq(4)
	w.attempt(1, 1, all, all, without(all, 2), true)
	// Player 2's reveal arrives after the close.
	var cs [][32]byte
	for _, raw := range w.records {
		if r, _ := Decode(raw); r.Kind == KindCommit {
			cs = append(cs, r.Commitment)
		}
	}
	k := w.roster[2]
	late := &Record{Kind: KindReveal, Tournament: w.tid, Signer: k, Round: 1, Attempt: 1, Commits: CommitsHash(w.tid, 1, 1, cs), Opening: opening(1, 1, k)}
	w.records = append(w.records, sign(t, late, w.privs[k]))
	w.attempt(1, 2, without(all, 2), without(all, 2), without(all, 2), true)
	rep := w.finish(1)
	if rep.Final == nil || rep.Status != StatusUnfinished || strings.Join(named(rep, "late-reveal"), ",") != "-" {
		t.Fatalf("status %d %+v", rep.Status, rep.Problems)
	}
}
