package tournament

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"testing"
)

// chainOf is a test chain of n records named by tag.
func chainOf(tag string, n int) [][32]byte {
	out := make([][32]byte, n)
	for i := range out {
		out[i] = sha256.Sum256(fmt.Appendf(nil, "%s %d", tag, i))
	}
	return out
}

// longWorld is an honest 8-player, 2-round world whose matches have
// chains of 10 records, each able to give its prefixes (unfinished, seat
// 0 silent, every last score 20).
func longWorld(t *testing.T, version int) *world {
	w := newWorldV(t, 8, "swiss:rounds=2", "classic:points=2", version)
	w.result = classicResult
	for r := 1; r <= 2; r++ {
		w.drawRound(r)
		rep := Check(w.records, w.matches)
		for _, tb := range rep.Rounds[r-1].Tables {
			w.matches[tb.Ref] = longMatch(w, tb, 10)
		}
		w.fix(r)
	}
	return w
}

func longMatch(w *world, tb Table, n int) *Match {
	m := &Match{TableID: tb.ID, Ruleset: w.ruleset, Silent: -1, Cheater: -1, Chain: chainOf(fmt.Sprint(tb.Ref), n)}
	for i, s := range tb.Seats {
		m.Keys = append(m.Keys, w.roster[s])
		m.Signed = append(m.Signed, true)
		m.Scores = append(m.Scores, []int{4, 0, -2, -4}[i])
		m.Places = append(m.Places, i+1)
	}
	full := *m
	m.Prefix = func(k int) *Match {
		p := full
		p.Chain, p.Status, p.Places, p.Silent = full.Chain[:k], StatusUnfinished, nil, 0
		p.Scores = []int{20, 20, 20, 20}[:len(full.Keys)]
		return &p
	}
	return m
}

func hasRule(rep *Report, rule string, status int) bool {
	for _, p := range rep.Problems {
		if p.Rule == rule && p.Status == status {
			return true
		}
	}
	return false
}

// TestResultsFixTheCopy: the round's results name each table's chain; a
// copy cut short (or another copy) is damaged, never a stall; a longer
// copy is scored on the fixed chain; no results: the standings wait.
func TestResultsFixTheCopy(t *testing.T) {
	w := longWorld(t, Version2)
	rep := Check(w.records, w.matches)
	if rep.Status != StatusHonest || rep.Final == nil {
		t.Fatalf("honest: status %d %+v", rep.Status, rep.Problems)
	}
	m := w.matches[Ref{1, 0}]

	cut := m.Prefix(9)
	w.matches[Ref{1, 0}] = cut
	rep = Check(w.records, w.matches)
	if rep.Status != StatusDamaged || rep.Final != nil || !hasRule(rep, "cut", StatusDamaged) || rep.Rounds[0].Tables[0].State != "cut" {
		t.Fatalf("cut: status %d final %v %+v", rep.Status, rep.Final, rep.Problems)
	}

	other := *m
	other.Chain = chainOf("another copy", 10)
	w.matches[Ref{1, 0}] = &other
	if rep = Check(w.records, w.matches); rep.Status != StatusDamaged || !hasRule(rep, "cut", StatusDamaged) {
		t.Fatalf("another copy: status %d %+v", rep.Status, rep.Problems)
	}

	// The creator fixed 8 records of a 10-record copy: scored on the 8.
	w.matches[Ref{1, 0}] = m
	w2 := longWorld(t, Version2)
	w2.records = w2.records[:0]
	for _, raw := range w.records {
		r, _ := Decode(raw)
		if r.Kind == KindResults && r.Round == 1 {
			r.Tables[0] = TableEnd{Length: 8, Last: m.Chain[7]}
			r.Raw = nil
			raw = sign(t, r, w.cpriv)
		}
		w2.records = append(w2.records, raw)
	}
	rep = Check(w2.records, w.matches)
	if !hasRule(rep, "stale-results", StatusUnfinished) || rep.Rounds[0].Tables[0].State != "unfinished" {
		t.Fatalf("longer copy: status %d %+v", rep.Status, rep.Problems)
	}
	if got := fmtInts(rep.Rounds[0].Tables[0].Points); got != "[0 3 3 3]" {
		t.Fatalf("longer copy scored %s, want the fixed prefix's [0 3 3 3]", got)
	}
	if rep.Status == StatusCheating {
		t.Fatalf("a longer copy named someone: %+v", rep.Problems)
	}

	// Without round 2's results the final standings wait.
	var cutRecs [][]byte
	for _, raw := range w.records {
		if r, _ := Decode(raw); r.Kind != KindResults || r.Round != 2 {
			cutRecs = append(cutRecs, raw)
		}
	}
	rep = Check(cutRecs, w.matches)
	if rep.Status != StatusUnfinished || rep.Final != nil || !hasRule(rep, "results", StatusUnfinished) || !rep.Rounds[1].Scored {
		t.Fatalf("no results: status %d final %v %+v", rep.Status, rep.Final, rep.Problems)
	}
}

// TestResultsContradictionsNameTheCreator: two different results for a
// round, or results for another number of tables, name the creator;
// results signed by anyone else are damage, ignored.
func TestResultsContradictionsNameTheCreator(t *testing.T) {
	w := longWorld(t, Version2)
	m := w.matches[Ref{2, 1}]
	two := &Record{Kind: KindResults, Tournament: w.tid, Signer: w.cpub, Round: 2,
		Tables: []TableEnd{{Length: 10, Last: w.matches[Ref{2, 0}].Chain[9]}, {Length: 9, Last: m.Chain[8]}}}
	rep := Check(append(w.records, sign(t, two, w.cpriv)), w.matches)
	if rep.Status != StatusCheating || len(named(rep, "equivocation")) != 1 || rep.Final != nil {
		t.Fatalf("two results: status %d %+v", rep.Status, rep.Problems)
	}

	w = longWorld(t, Version2)
	var recs [][]byte
	for _, raw := range w.records {
		if r, _ := Decode(raw); r.Kind == KindResults && r.Round == 1 {
			r.Tables, r.Raw = r.Tables[:1], nil
			raw = sign(t, r, w.cpriv)
		}
		recs = append(recs, raw)
	}
	if rep = Check(recs, w.matches); rep.Status != StatusCheating || len(named(rep, "results")) != 1 {
		t.Fatalf("one table of two: status %d %+v", rep.Status, rep.Problems)
	}

	w = longWorld(t, Version2)
	ppriv, ppub := key(3)
	stranger := &Record{Kind: KindResults, Tournament: w.tid, Signer: ppub, Round: 1, Tables: []TableEnd{{Length: 1, Last: [32]byte{1}}}}
	rep = Check(append(w.records, sign(t, stranger, ppriv)), w.matches)
	if rep.Status != StatusDamaged || rep.Final == nil {
		t.Fatalf("a player's results: status %d final %v %+v", rep.Status, rep.Final, rep.Problems)
	}
}

// TestSeatingNamesOnlyOnOwnRecords (issue 35): a round-2 table seated
// otherwise than the standings say names a seat only when its own records
// fix those standings: in version 2 its commitment cites the folder's
// round-1 results; in version 1, while no earlier table is unfinished.
func TestSeatingNamesOnlyOnOwnRecords(t *testing.T) {
	swap := func(w *world) {
		a, b := w.matches[Ref{2, 0}], w.matches[Ref{2, 1}]
		a.Keys[0], b.Keys[0] = b.Keys[0], a.Keys[0]
	}
	// Version 1, every round-1 table finished: the swap is proof.
	w := longWorld(t, Version1)
	swap(w)
	if rep := Check(w.records, w.matches); rep.Status != StatusCheating || len(named(rep, "seating")) != 8 {
		t.Fatalf("v1 finished: status %d %+v", rep.Status, rep.Problems)
	}
	// Version 1 with a round-1 table unfinished (a cut file looks the
	// same): no one is named.
	w = longWorld(t, Version1)
	swap(w)
	w.matches[Ref{1, 1}] = w.matches[Ref{1, 1}].Prefix(5)
	rep := Check(w.records, w.matches)
	if rep.Status != StatusUnfinished || !hasRule(rep, "unfixed-seating", StatusUnfinished) {
		t.Fatalf("v1 unfinished: status %d %+v", rep.Status, rep.Problems)
	}
	// Version 2: the swap names the seats whose commitment cites the
	// round-1 results; a player citing other results is not named.
	w = longWorld(t, Version2)
	swap(w)
	if rep := Check(w.records, w.matches); rep.Status != StatusCheating || len(named(rep, "seating")) != 8 {
		t.Fatalf("v2: status %d %+v", rep.Status, rep.Problems)
	}
	w = longWorld(t, Version2)
	var recs [][]byte
	other := sha256.Sum256([]byte("other results"))
	for _, raw := range w.records {
		if r, _ := Decode(raw); r.Kind == KindCommit && r.Round == 2 {
			priv := w.privs[r.Signer]
			r.Prior, r.Raw = other, nil
			raw = sign(t, r, priv)
		}
		recs = append(recs, raw)
	}
	// The reveals cite the commitments' hash: redo them.
	w.records = recs
	rep = Check(w.records, w.matches)
	if rep.Status == StatusCheating {
		t.Fatalf("v2, other results cited: named %+v", rep.Problems)
	}
	if !hasRule(rep, "prior", StatusUnfinished) {
		t.Fatalf("v2, other results cited: no prior finding %+v", rep.Problems)
	}
}

// TestDecodeVersions: version 2 records round-trip; kind 7 and a
// commitment's prior follow 9.2's rules.
func TestDecodeVersions(t *testing.T) {
	w := longWorld(t, Version2)
	_, pub := key(1)
	for name, r := range map[string]*Record{
		"results in version 1": {Version: Version1, Kind: KindResults, Tournament: w.tid, Signer: w.cpub, Round: 1, Tables: []TableEnd{{Length: 1, Last: [32]byte{1}}}},
		"no tables":            {Kind: KindResults, Tournament: w.tid, Signer: w.cpub, Round: 1},
		"17 tables":            {Kind: KindResults, Tournament: w.tid, Signer: w.cpub, Round: 1, Tables: make([]TableEnd, 17)},
		"empty chain, a hash":  {Kind: KindResults, Tournament: w.tid, Signer: w.cpub, Round: 1, Tables: []TableEnd{{Length: 0, Last: [32]byte{1}}}},
		"a chain, no hash":     {Kind: KindResults, Tournament: w.tid, Signer: w.cpub, Round: 1, Tables: []TableEnd{{Length: 3}}},
		"round 0":              {Kind: KindResults, Tournament: w.tid, Signer: w.cpub, Round: 0, Tables: []TableEnd{{Length: 1, Last: [32]byte{1}}}},
		"round 1 with a prior": {Kind: KindCommit, Tournament: w.tid, Signer: pub, Round: 1, Attempt: 1, Prior: [32]byte{1}},
		"round 2 without":      {Kind: KindCommit, Tournament: w.tid, Signer: pub, Round: 2, Attempt: 1},
	} {
		if _, err := Decode(append(r.body(), make([]byte, 64)...)); !errors.Is(err, ErrRecord) {
			t.Errorf("%s: err %v", name, err)
		}
	}
	v1 := &Record{Version: Version1, Kind: KindCommit, Tournament: w.tid, Signer: pub, Round: 2, Attempt: 1}
	r, err := Decode(append(v1.body(), make([]byte, 64)...))
	if err != nil || r.Version != Version1 || len(r.Raw) != len(v1.body())+64 {
		t.Fatalf("a version 1 commitment: %v", err)
	}
}
