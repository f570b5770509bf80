package tournament

import (
	"errors"
	"strings"
	"testing"
)

// classicResult: at each table the seats score 20, 10, 5, 0 in seat order
// (seat 0 wins), so places follow seat order.
func classicResult(_, _ int, seats []int) []int {
	out := make([]int, len(seats))
	for i := range out {
		out[i] = []int{20, 10, 5, 0}[i]
	}
	return out
}

func honestWorld(t *testing.T, n, rounds int) (*world, *Report) {
	t.Helper()
	format := "swiss"
	if rounds != 3 {
		format = "swiss:rounds=" + string(rune('0'+rounds))
	}
	w := newWorld(t, n, format, "classic:points=2")
	w.result = classicResult
	var rep *Report
	for r := 1; r <= rounds; r++ {
		rep = w.playRound(r)
	}
	return w, rep
}

func TestHonestTournament(t *testing.T) {
	for _, n := range []int{4, 6, 7, 8, 9} {
		_, rep := honestWorld(t, n, 3)
		if rep.Status != StatusHonest || len(rep.Problems) != 0 {
			t.Fatalf("%d players: status %d %+v", n, rep.Status, rep.Problems)
		}
		if len(rep.Final) != n {
			t.Fatalf("%d players: final standings %v", n, rep.Final)
		}
		// Every seat 0 won 3 points; the sums must add up.
		total := 0
		for _, rd := range rep.Rounds {
			for _, tb := range rd.Tables {
				for i, p := range tb.Points {
					if want := []int{3, 2, 1, 0}[i]; p != want {
						t.Errorf("%d players round %d table %d seat %d: %d points, want %d", n, rd.Number, tb.Table, i, p, want)
					}
					total += p
				}
			}
		}
		sum := 0
		for i, s := range rep.Final {
			sum += s.Points
			if s.Place != i+1 {
				t.Errorf("place %d at line %d", s.Place, i)
			}
			if i > 0 {
				p := rep.Final[i-1]
				if p.Points < s.Points || (p.Points == s.Points && (p.Score < s.Score || (p.Score == s.Score && p.DrawPos > s.DrawPos))) {
					t.Errorf("standings out of order at %d: %+v then %+v", i, p, s)
				}
			}
		}
		if sum != total {
			t.Errorf("standings sum %d, tables %d", sum, total)
		}
	}
}

// TestSwissPairing: from round 2 on, the first table holds the four best
// of the standings after the round before; seats within a table follow the
// round's draw.
func TestSwissPairing(t *testing.T) {
	_, rep := honestWorld(t, 8, 3)
	for r := 1; r < 3; r++ {
		top := map[int]bool{}
		for _, s := range rep.Rounds[r-1].Standings[:4] {
			top[s.Player] = true
		}
		next := rep.Rounds[r]
		pos := map[int]int{}
		for p, pl := range next.Draw {
			pos[pl] = p
		}
		for i, pl := range next.Tables[0].Seats {
			if !top[pl] {
				t.Errorf("round %d: table 1 seats %d, not among the 4 best", r+1, pl)
			}
			if i > 0 && pos[pl] < pos[next.Tables[0].Seats[i-1]] {
				t.Errorf("round %d: seats not in draw order", r+1)
			}
		}
	}
}

func named(rep *Report, rule string) []string {
	var out []string
	for _, p := range rep.Problems {
		if p.Rule == rule {
			for _, n := range p.Named {
				out = append(out, n.Name)
			}
			if len(p.Named) == 0 {
				out = append(out, "-")
			}
		}
	}
	return out
}

func TestMissingMatchIsUnfinished(t *testing.T) {
	w, _ := honestWorld(t, 8, 3)
	delete(w.matches, Ref{2, 1})
	rep := Check(w.records, w.matches)
	if rep.Status != StatusUnfinished || rep.Final != nil {
		t.Fatalf("status %d final %v: %+v", rep.Status, rep.Final, rep.Problems)
	}
	if got := named(rep, "missing"); len(got) != 1 || got[0] != "-" {
		t.Fatalf("missing: %v", got)
	}
	// Round 1's standings are still computed; round 3's tables are not checked.
	if rep.Rounds[0].Standings == nil || rep.Rounds[2].Tables != nil {
		t.Fatalf("rounds: %+v", rep.Rounds)
	}
}

func TestUnfinishedScoringRule(t *testing.T) {
	w, _ := honestWorld(t, 4, 1)
	m := w.matches[Ref{1, 0}]
	m.Status, m.Places, m.Silent = StatusUnfinished, nil, 0
	m.Scores = []int{18, 16, 18, 20}
	rep := Check(w.records, w.matches)
	if rep.Status != StatusUnfinished || len(named(rep, "unfinished")) != 1 || named(rep, "unfinished")[0] != "-" {
		t.Fatalf("status %d %+v", rep.Status, rep.Problems)
	}
	// Seat 0 silent: 0 points; seat 3 (20) first: 3; seat 2 (18) 2; seat 1 (16) 1.
	if got := fmtInts(rep.Rounds[0].Tables[0].Points); got != "[0 1 2 3]" {
		t.Fatalf("points %s", got)
	}
	if rep.Final == nil {
		t.Fatal("no standings under the scoring rule")
	}
	// No hand finished: everyone but the silent seat shares first place.
	m.Scores = nil
	rep = Check(w.records, w.matches)
	if got := fmtInts(rep.Rounds[0].Tables[0].Points); got != "[0 3 3 3]" {
		t.Fatalf("points %s", got)
	}
}

func TestPenaltyDirection(t *testing.T) {
	w := newWorld(t, 4, "swiss:rounds=1", "turkish-rummy:rounds=1")
	w.result = func(_, _ int, seats []int) []int { return []int{0, 20, 20, 40} }
	w.drawRound(1)
	rep := Check(w.records, w.matches)
	tb := rep.Rounds[0].Tables[0]
	w.matches[tb.Ref] = &Match{TableID: tb.ID, Ruleset: w.ruleset, Silent: 1, Status: StatusUnfinished,
		Keys:   [][32]byte{w.roster[tb.Seats[0]], w.roster[tb.Seats[1]], w.roster[tb.Seats[2]], w.roster[tb.Seats[3]]},
		Signed: []bool{true, true, true, true}, Scores: []int{0, 20, 20, 40}}
	rep = Check(w.records, w.matches)
	// Lowest first: seat 0 (0) 3, seat 2 (20) 2, seat 3 (40) 1, seat 1 silent 0.
	if got := fmtInts(rep.Rounds[0].Tables[0].Points); got != "[3 0 2 1]" {
		t.Fatalf("points %s", got)
	}
	if got := fmtInts(rep.Rounds[0].Tables[0].Scores); got != "[0 -20 -20 -40]" {
		t.Fatalf("scores %s", got)
	}
}

func TestForgedRegistrationNamesCreator(t *testing.T) {
	w, _ := honestWorld(t, 4, 1)
	// Replace player 2's registration by one with another name and a
	// signature by someone else; re-sign the roster citing it (the
	// creator's doing).
	_, pub := key(2)
	forged := &Record{Kind: KindRegister, Tournament: w.tid, Signer: pub, Name: "impostor", PeerID: "peerX"}
	priv9, _ := key(9)
	forged.Raw = append(forged.body(), make([]byte, 64)...)
	copy(forged.Sig[:], priv9[:64])
	copy(forged.Raw[len(forged.Raw)-64:], forged.Sig[:])
	var recs [][]byte
	cpriv, cpub := key(100)
	var entries []Entry
	for _, raw := range w.records {
		r, _ := Decode(raw)
		switch {
		case r.Kind == KindRegister && r.Signer == pub:
			recs = append(recs, forged.Raw)
		case r.Kind == KindRoster:
			for _, e := range r.Entries {
				if e.Key == pub {
					e.Registration = forged.Hash()
				}
				entries = append(entries, e)
			}
			ros := &Record{Kind: KindRoster, Tournament: w.tid, Signer: cpub, Entries: entries}
			recs = append(recs, sign(t, ros, cpriv))
		default:
			recs = append(recs, raw)
		}
	}
	rep := Check(recs, w.matches)
	if rep.Status != StatusCheating || strings.Join(named(rep, "forged-registration"), ",") != "cup" {
		t.Fatalf("status %d %+v", rep.Status, rep.Problems)
	}
	// The same forged registration without the creator's roster citing it
	// (the folder's bytes changed): damaged, no one named.
	recs2 := append([][]byte(nil), w.records...)
	for i, raw := range recs2 {
		if r, _ := Decode(raw); r.Kind == KindRegister && r.Signer == pub {
			recs2[i] = forged.Raw
		}
	}
	rep = Check(recs2, w.matches)
	if rep.Status != StatusDamaged {
		t.Fatalf("status %d %+v", rep.Status, rep.Problems)
	}
}

func TestRedrawnSeatingNamesSigners(t *testing.T) {
	w, _ := honestWorld(t, 8, 2)
	m := w.matches[Ref{2, 0}]
	m.Keys[0], m.Keys[1] = m.Keys[1], m.Keys[0]
	m.Signed[3] = false
	rep := Check(w.records, w.matches)
	got := named(rep, "seating")
	if rep.Status != StatusCheating || len(got) != 3 {
		t.Fatalf("status %d named %v %+v", rep.Status, got, rep.Problems)
	}
	// A swap with the other table's player.
	w2, _ := honestWorld(t, 8, 1)
	a, b := w2.matches[Ref{1, 0}], w2.matches[Ref{1, 1}]
	a.Keys[2], b.Keys[2] = b.Keys[2], a.Keys[2]
	rep = Check(w2.records, w2.matches)
	if rep.Status != StatusCheating || len(named(rep, "seating")) != 8 {
		t.Fatalf("status %d %+v", rep.Status, rep.Problems)
	}
}

func TestDrawCheats(t *testing.T) {
	// Two commitments for one round: equivocation, the player named.
	w := newWorld(t, 4, "swiss:rounds=1", "classic")
	w.drawRound(1)
	k := w.roster[1]
	extra := &Record{Kind: KindCommit, Tournament: w.tid, Signer: k, Round: 1, Attempt: 1, Commitment: [32]byte{1}}
	recs := append(append([][]byte(nil), w.records...), sign(t, extra, w.privs[k]))
	rep := Check(recs, nil)
	if rep.Status != StatusCheating || len(named(rep, "equivocation")) != 1 {
		t.Fatalf("status %d %+v", rep.Status, rep.Problems)
	}
	// A reveal that does not open the commitment.
	w = newWorld(t, 4, "swiss:rounds=1", "classic")
	w.drawRound(1)
	for i, raw := range w.records {
		if r, _ := Decode(raw); r.Kind == KindReveal && r.Signer == k {
			r.Opening[0] ^= 1
			w.records[i] = sign(t, r, w.privs[k])
		}
	}
	rep = Check(w.records, nil)
	if rep.Status != StatusCheating || len(named(rep, "bad-reveal")) != 1 || rep.Rounds[0].Draw != nil {
		t.Fatalf("status %d %+v", rep.Status, rep.Problems)
	}
	// A reveal withheld and no close yet: unfinished, no one named.
	w = newWorld(t, 4, "swiss:rounds=1", "classic")
	w.attempt(1, 1, []int{0, 1, 2, 3}, []int{0, 1, 2, 3}, []int{0, 1, 3}, false)
	rep = Check(w.records, nil)
	if rep.Status != StatusUnfinished || len(named(rep, "silent")) != 1 || named(rep, "silent")[0] != "-" {
		t.Fatalf("status %d %+v", rep.Status, rep.Problems)
	}
	// A byte of a commitment changed: its signature fails, damaged.
	w = newWorld(t, 4, "swiss:rounds=1", "classic")
	w.drawRound(1)
	for i, raw := range w.records {
		if r, _ := Decode(raw); r.Kind == KindCommit {
			b := append([]byte(nil), raw...)
			b[len(b)-65] ^= 1
			w.records[i] = b
			break
		}
	}
	if rep = Check(w.records, nil); rep.Status != StatusDamaged {
		t.Fatalf("status %d %+v", rep.Status, rep.Problems)
	}
}

// TestDrawIgnoresCreator: the draw depends on the openings only; the same
// openings give the same draw, and one player's other opening another.
func TestDrawIgnoresCreator(t *testing.T) {
	var tid [32]byte
	o := [][32]byte{{1}, {2}, {3}, {4}}
	a := Draw(Seed(tid, 1, 1, o), 4)
	if fmtInts(a) != fmtInts(Draw(Seed(tid, 1, 1, o), 4)) {
		t.Fatal("draw not deterministic")
	}
	seen := map[string]bool{}
	for v := 0; v < 64; v++ {
		o[2][1] = byte(v)
		d := Draw(Seed(tid, 1, 1, o), 4)
		seen[fmtInts(d)] = true
		got := map[int]bool{}
		for _, p := range d {
			got[p] = true
		}
		if len(got) != 4 {
			t.Fatalf("not a permutation: %v", d)
		}
	}
	if len(seen) < 12 {
		t.Fatalf("one player's opening reaches only %d of 24 orders in 64 tries", len(seen))
	}
}

// TestDrawVector is protocol.md 9.4's test vector.
func TestDrawVector(t *testing.T) {
	var seed [32]byte
	if got := fmtInts(Draw(seed, 8)); got != drawVector {
		t.Fatalf("Draw(zero seed, 8) = %s", got)
	}
}

func TestRecordsRoundTrip(t *testing.T) {
	w, _ := honestWorld(t, 4, 1)
	for _, raw := range w.records {
		r, err := Decode(raw)
		if err != nil || !r.Verify() || string(append(r.body(), r.Sig[:]...)) != string(raw) {
			t.Fatalf("%v", err)
		}
	}
	file := EncodeFile(w.records)
	back, err := DecodeFile(file)
	if err != nil || len(back) != len(w.records) {
		t.Fatal(err)
	}
	if _, err := DecodeFile(file[:len(file)-1]); !errors.Is(err, ErrRecord) {
		t.Fatal("cut file accepted")
	}
}

func TestDecodeRejects(t *testing.T) {
	cpriv, cpub := key(100)
	good := &Record{Kind: KindAnnounce, Signer: cpub, Nonce: [32]byte{1}, Players: 8, Name: "cup", Format: "swiss", Ruleset: "classic"}
	raw := sign(t, good, cpriv)
	for name, mut := range map[string]func(r *Record){
		"format not canonical":  func(r *Record) { r.Format = "swiss:rounds=3" },
		"ruleset not canonical": func(r *Record) { r.Ruleset = "classic:deal=stacks" },
		"five players":          func(r *Record) { r.Players = 5 },
		"teams":                 func(r *Record) { r.Ruleset = "classic:partnerships" },
		"no nonce":              func(r *Record) { r.Nonce = [32]byte{} },
		"empty name":            func(r *Record) { r.Name = "" },
		"control in name":       func(r *Record) { r.Name = "a\x07" },
	} {
		r := *good
		mut(&r)
		if _, err := Decode(append(r.body(), make([]byte, 64)...)); !errors.Is(err, ErrRecord) && !errors.Is(err, ErrFormat) {
			t.Errorf("%s: err %v", name, err)
		}
	}
	for name, b := range map[string][]byte{
		"trailing":  append(append([]byte(nil), raw...), 0),
		"truncated": raw[:len(raw)-1],
		"kind 9":    append([]byte("OKT\x01\x09"), raw[5:]...),
		"version 3": append([]byte("OKT\x03"), raw[4:]...),
		"version 0": append([]byte("OKT\x00"), raw[4:]...),
	} {
		if _, err := Decode(b); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
	unsorted := &Record{Kind: KindRoster, Signer: cpub, Entries: []Entry{{Key: cpub}, {Key: cpub}, {Key: cpub}}}
	if _, err := Decode(append(unsorted.body(), make([]byte, 64)...)); err == nil {
		t.Error("roster with a repeated key accepted")
	}
}

func FuzzDecode(f *testing.F) {
	w, _ := honestWorld(&testing.T{}, 4, 1)
	for _, raw := range w.records {
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := Decode(b)
		if err != nil {
			return
		}
		if string(append(r.body(), r.Sig[:]...)) != string(b) {
			t.Fatal("decoded record does not re-encode to its bytes")
		}
		r.Verify()
	})
}

func FuzzDecodeFile(f *testing.F) {
	f.Add(EncodeFile([][]byte{[]byte("OKT"), nil}))
	f.Add([]byte(FileMagic + "\x00\x00\x00\x01x"))
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, err := DecodeFile(b)
		if err != nil {
			return
		}
		if string(EncodeFile(recs)) != string(b) {
			t.Fatal("records file does not re-encode")
		}
		Check(recs, nil)
	})
}
