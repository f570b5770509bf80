package tournament

import (
	"bytes"
	"fmt"

	"github.com/okey-game/okey/engine"
)

// Statuses, as `okey verify` gives them (protocol.md 6).
const (
	StatusHonest     = 0
	StatusCheating   = 1
	StatusDamaged    = 2
	StatusUnfinished = 3
)

// Worst returns the status that matters most: 1 before 2, 2 before 3, 3
// before 0.
func Worst(a, b int) int {
	rank := [4]int{0, 3, 2, 1}
	if b >= 0 && b < 4 && (a < 0 || a >= 4 || rank[b] > rank[a]) {
		return b
	}
	return a
}

// Match is what one table's transcript says once verified (table.Verify):
// the caller fills it; the package decides nothing about transcripts.
type Match struct {
	Status  int // the transcript's verdict: 0 honest, 1 cheating, 2 damaged, 3 unfinished
	TableID [16]byte
	Ruleset string
	Keys    [][32]byte // the config's seat keys, in seat order
	// Signed marks the seats that signed at least one verified envelope of
	// the chain (so signed under the config).
	Signed []bool
	Places []int // status 0: each seat's place by the ruleset's ranking (1 best)
	// Scores are each seat's scores after the last finished hand (final
	// when status 0); nil when no hand finished.
	Scores  []int
	Silent  int // status 3: the seat that was to send the next message; -1 when none
	Cheater int // status 1: the seat named
	// Chain holds SHA-256 of each record of the chain, in order (how a
	// round's results fix a table, 9.5).
	Chain [][32]byte
	// Prefix, when set, returns the Match of the same transcript cut to
	// its first n chain records, without evidence: the copy a round's
	// results fix when this one goes further.
	Prefix func(n int) *Match
}

// Ref names a tournament table: round from 1, table from 0.
type Ref struct{ Round, Table int }

// Named is a key named on its own signature.
type Named struct {
	Key  [32]byte
	Name string
	// Creator marks the creator named for a record it signed as creator
	// (an announcement or roster).
	Creator bool
}

// Problem is one finding; Status is its exit status.
type Problem struct {
	Status int
	Round  int // 0 when not a round's
	Table  int // -1 when not a table's
	Rule   string
	Named  []Named // status 1: the signers named
	Text   string  // English
}

// Player is a registered player (roster order).
type Player struct {
	Key    [32]byte
	Name   string
	PeerID string
}

// Table is a round's table as drawn and its result.
type Table struct {
	Ref
	ID     [16]byte
	Seats  []int  // roster indices, in seat order
	State  string // finished, unfinished, cheating, missing, damaged, cut, seating
	Points []int  // placement points per seat (nil when not scored)
	Scores []int  // the match scores per seat counted for the tie-break (nil when not scored)
}

// Standing is one line of the standings, best first.
type Standing struct {
	Player  int // roster index
	Place   int
	Points  int
	Score   int // total match score, in the ruleset's direction (9.5)
	DrawPos int // position in the round's draw (0 first)
}

// Round is one round's draw, tables and standings.
type Round struct {
	Number int
	// Attempt is the draw attempt that stands (or the one under way when
	// the round is not drawn); 0 when the round's draw could not be
	// followed (a problem says why).
	Attempt int
	// Active are the roster indices (ascending) of that attempt's players.
	Active []int
	// Absent are the roster indices (ascending) of the players an earlier
	// attempt's close left out of the round: 0 points, match score 0.
	Absent []int
	Draw   []int // the standing attempt's players in draw order (nil when not drawn)
	// Cited are, by roster index, the round results hashes the standing
	// attempt's commitments cite (version 2: the results each player
	// paired from; zero in round 1 and for players not in the attempt).
	Cited [][32]byte
	// Openings are the revealed openings of the standing attempt, by
	// roster index (zero for the absent; nil when not drawn): they give
	// the seats' nonces (SeatNonce).
	Openings [][32]byte
	Tables   []Table
	// Byes are the roster indices of the drawn players no table could
	// seat (9.5), in the round's order: each scores the second place's
	// points and match score 0.
	Byes []int
	// Scored is true when every table of the round is scored (Points and
	// Scores set): the creator of a version 2 tournament then signs the
	// round's results (9.5) from the copies it holds.
	Scored bool
	// Results is the creator's results record of the round when the
	// folder has it (version 2).
	Results *Record
	// Standings are nil when a match of this or an earlier round is
	// missing or damaged, or (version 2) the round's results are not in
	// the folder.
	Standings []Standing
}

// Report is the verdict on a tournament's records and matches.
type Report struct {
	Status int
	// Version is the announcement's record version (Version1 or Version2).
	Version  int
	ID       [32]byte
	Name     string
	Format   Format
	Ruleset  string
	Creator  [32]byte
	Players  []Player
	Rounds   []Round
	Final    []Standing // the standings after the last round, when computed
	Problems []Problem
}

func (rep *Report) add(p Problem) {
	rep.Problems = append(rep.Problems, p)
	rep.Status = Worst(rep.Status, p.Status)
}

func hexKey(k [32]byte) string { return fmt.Sprintf("%x", k[:4]) }

// Check verifies a tournament (protocol.md 9.6-9.7): every record, the
// roster against the registrations, each round's commit-reveal draw, each
// table's transcript against the draw and pairing, then placement points
// and standings. records are a records file's records in file order;
// matches holds the verified transcripts present, by table.
func Check(records [][]byte, matches map[Ref]*Match) *Report {
	rep := &Report{}
	var recs []*Record
	var ann *Record
	for i, raw := range records {
		r, err := Decode(raw)
		if err != nil {
			rep.add(Problem{Status: StatusDamaged, Table: -1, Rule: "record", Text: fmt.Sprintf("record %d does not decode: %v", i, err)})
			continue
		}
		if r.Kind == KindAnnounce {
			if ann == nil {
				ann = r
			} else if ann.ID() != r.ID() {
				rep.add(Problem{Status: StatusDamaged, Table: -1, Rule: "record", Text: fmt.Sprintf("record %d announces another tournament", i)})
			}
			continue
		}
		recs = append(recs, r)
	}
	if ann == nil {
		rep.add(Problem{Status: StatusDamaged, Table: -1, Rule: "record", Text: "no announcement: not a tournament's records"})
		return rep
	}
	if !ann.Verify() {
		rep.add(Problem{Status: StatusDamaged, Table: -1, Rule: "signature", Text: "the announcement's signature does not verify"})
		return rep
	}
	tid := ann.ID()
	rep.ID, rep.Name, rep.Ruleset, rep.Creator, rep.Version = tid, ann.Name, ann.Ruleset, ann.Signer, ann.Version
	f, _ := CheckSetup(ann.Format, ann.Ruleset, ann.Players) // checked by Decode
	rep.Format = f
	rs, _ := engine.ParseRuleset(ann.Ruleset)
	creator := Named{Key: ann.Signer, Name: ann.Name, Creator: true}

	// The roster and the registrations.
	regs := map[[32]byte]*Record{}
	var cited = map[[32]byte]bool{}
	var roster *Record
	var mine []*Record // this tournament's records with valid signatures, file order
	for _, r := range recs {
		if r.Tournament != tid {
			rep.add(Problem{Status: StatusDamaged, Table: -1, Rule: "record", Text: fmt.Sprintf("a %s for another tournament", r.Kind)})
			continue
		}
		if r.Version != ann.Version {
			rep.add(Problem{Status: StatusDamaged, Table: -1, Rule: "record", Text: fmt.Sprintf("a version %d %s in a version %d tournament", r.Version, r.Kind, ann.Version)})
			continue
		}
		if r.Kind == KindRegister {
			regs[r.Hash()] = r // judged through the roster below
			continue
		}
		if !r.Verify() {
			rep.add(Problem{Status: StatusDamaged, Table: -1, Rule: "signature", Text: fmt.Sprintf("a %s by %s whose signature does not verify; no one is named", r.Kind, hexKey(r.Signer))})
			continue
		}
		if r.Kind == KindRoster {
			if r.Signer != ann.Signer {
				rep.add(Problem{Status: StatusDamaged, Table: -1, Rule: "record", Text: "a roster not signed by the creator"})
				continue
			}
			if roster != nil && !bytes.Equal(roster.body(), r.body()) {
				rep.add(Problem{Status: StatusCheating, Table: -1, Rule: "equivocation", Named: []Named{creator}, Text: "the creator signed two different rosters"})
				continue
			}
			roster = r
			continue
		}
		mine = append(mine, r)
	}
	if roster == nil {
		rep.add(Problem{Status: StatusUnfinished, Table: -1, Rule: "roster", Text: "registration never closed: no roster"})
		return rep
	}
	bad := false
	if len(roster.Entries) != ann.Players {
		rep.add(Problem{Status: StatusCheating, Table: -1, Rule: "roster", Named: []Named{creator},
			Text: fmt.Sprintf("the creator's roster lists %d players; the announcement says %d", len(roster.Entries), ann.Players)})
		bad = true
	}
	index := map[[32]byte]int{}
	for i, e := range roster.Entries {
		index[e.Key] = i
		cited[e.Registration] = true
		p := Player{Key: e.Key, Name: hexKey(e.Key)}
		reg := regs[e.Registration]
		switch {
		case reg == nil:
			rep.add(Problem{Status: StatusDamaged, Table: -1, Rule: "registration", Text: fmt.Sprintf("the registration of roster player %d (%s) is not in the folder", i, hexKey(e.Key))})
			bad = true
		case !reg.Verify():
			rep.add(Problem{Status: StatusCheating, Table: -1, Rule: "forged-registration", Named: []Named{creator},
				Text: fmt.Sprintf("the creator's roster cites a registration for %s that its key did not sign", hexKey(e.Key))})
			bad = true
		case reg.Signer != e.Key:
			rep.add(Problem{Status: StatusCheating, Table: -1, Rule: "forged-registration", Named: []Named{creator},
				Text: fmt.Sprintf("the creator's roster lists %s with a registration signed by %s", hexKey(e.Key), hexKey(reg.Signer))})
			bad = true
		default:
			p.Name, p.PeerID = reg.Name, reg.PeerID
		}
		rep.Players = append(rep.Players, p)
	}
	if !cited0(regs, cited) {
		rep.add(Problem{Status: StatusDamaged, Table: -1, Rule: "signature", Text: "a registration outside the roster whose signature does not verify; no one is named"})
	}
	if bad {
		return rep
	}
	named := func(i int) Named { return Named{Key: rep.Players[i].Key, Name: rep.Players[i].Name} }
	n := len(rep.Players)
	low := rs.Scoring == engine.Penalty || rs.Scoring == engine.WinnerCountDown || rs.Preset == engine.Preset101
	dir := 1
	if low {
		dir = -1
	}

	results, resultsBad := roundResults(rep, mine, creator)
	points := make([]int, n)
	scores := make([]int, n)
	var prev []Standing
	standingsOK := true
	// unfinishedBefore: an earlier round has an unfinished table. In a
	// version 1 folder (no round results) its scores may come from a cut
	// copy, so a later table seated otherwise than the standings say is
	// not proof against its seats (9.7 step 5).
	unfinishedBefore := false
	for round := 1; round <= f.Rounds; round++ {
		rd := Round{Number: round}
		if !checkDraw(rep, &rd, mine, tid, round, creator, named) {
			rep.Rounds = append(rep.Rounds, rd)
			break
		}
		pos := drawPositions(n, rd.Draw, rd.Absent)
		if !standingsOK {
			rep.add(Problem{Status: StatusUnfinished, Round: round, Table: -1, Rule: "pairing",
				Text: fmt.Sprintf("round %d's tables cannot be checked: an earlier round's standings are not defined (a match missing or damaged, or its results not in the folder)", round)})
			rep.Rounds = append(rep.Rounds, rd)
			continue
		}
		order := rd.Draw
		if round > 1 {
			order = nil
			for _, s := range prev {
				if pos[s.Player] < len(rd.Draw) {
					order = append(order, s.Player)
				}
			}
		}
		seated, sizes := Seatable(len(order), rs)
		rd.Byes = append([]int(nil), order[seated:]...)
		for _, pl := range rd.Byes {
			points[pl] += f.Points[1]
		}
		roundOK := !resultsBad[round]
		res := results[round]
		if res != nil && len(res.Tables) != len(sizes) {
			rep.add(Problem{Status: StatusCheating, Round: round, Table: -1, Rule: "results", Named: []Named{creator},
				Text: fmt.Sprintf("the creator's results of round %d list %d tables; the draw seats %d", round, len(res.Tables), len(sizes))})
			roundOK, res = false, nil
		}
		rd.Results = res
		// Who may be named for a seating otherwise than drawn: in round 1
		// everyone; in a version 1 folder no one once an earlier table is
		// unfinished; in version 2 a player whose commitment cites the
		// earlier round's results in this folder (it paired from them).
		blame := func(int) bool { return true }
		if rep.Version == Version1 && unfinishedBefore {
			blame = func(int) bool { return false }
		}
		if rep.Version >= Version2 && round > 1 {
			var prior [32]byte
			if r := results[round-1]; r != nil {
				prior = r.Hash()
			}
			blame = func(p int) bool { return prior != [32]byte{} && rd.Cited[p] == prior }
			for _, p := range rd.Active {
				if rd.Cited[p] != prior {
					rep.add(Problem{Status: StatusUnfinished, Round: round, Table: -1, Rule: "prior",
						Text: fmt.Sprintf("round %d: %s's commitment cites other round %d results than the folder's (the creator may have signed two); no one is named", round, rep.Players[p].Name, round-1)})
				}
			}
		}
		at := 0
		for t, k := range sizes {
			seats := append([]int(nil), order[at:at+k]...)
			at += k
			sortBy(seats, pos)
			tb := Table{Ref: Ref{round, t}, ID: TableID(tid, round, t), Seats: seats}
			var claim *TableEnd
			if res != nil {
				claim = &res.Tables[t]
			}
			if !scoreTable(rep, &tb, matches[tb.Ref], claim, blame, ann.Ruleset, rs, f, dir, named) {
				roundOK = false
			} else {
				for i, pl := range seats {
					points[pl] += tb.Points[i]
					scores[pl] += tb.Scores[i]
				}
			}
			if tb.State == "unfinished" {
				unfinishedBefore = true
			}
			rd.Tables = append(rd.Tables, tb)
		}
		rd.Scored = roundOK
		if roundOK && rep.Version >= Version2 && res == nil && len(sizes) > 0 {
			rep.add(Problem{Status: StatusUnfinished, Round: round, Table: -1, Rule: "results",
				Text: fmt.Sprintf("round %d's results are not in the folder: the creator has not fixed its tables, so its standings wait; no one is named", round)})
			roundOK = false
		}
		if roundOK {
			prev = standings(points, scores, pos)
			rd.Standings = prev
		} else {
			standingsOK = false
		}
		rep.Rounds = append(rep.Rounds, rd)
	}
	if standingsOK && len(rep.Rounds) == f.Rounds && rep.Rounds[f.Rounds-1].Standings != nil {
		rep.Final = rep.Rounds[f.Rounds-1].Standings
	}
	return rep
}

// roundResults gathers the creator's results records by round (9.5);
// bad marks the rounds for which the creator signed two different ones
// (the creator is named; the round's standings are not defined).
func roundResults(rep *Report, recs []*Record, creator Named) (map[int]*Record, map[int]bool) {
	out, bad := map[int]*Record{}, map[int]bool{}
	for _, r := range recs {
		if r.Kind != KindResults {
			continue
		}
		if r.Signer != creator.Key {
			rep.add(Problem{Status: StatusDamaged, Round: r.Round, Table: -1, Rule: "record", Text: fmt.Sprintf("round %d's results not signed by the creator (ignored); no one is named", r.Round)})
			continue
		}
		if prev := out[r.Round]; prev != nil {
			if !bytes.Equal(prev.body(), r.body()) && !bad[r.Round] {
				bad[r.Round] = true
				rep.add(Problem{Status: StatusCheating, Round: r.Round, Table: -1, Rule: "equivocation", Named: []Named{creator},
					Text: fmt.Sprintf("the creator signed two different results of round %d", r.Round)})
			}
			continue
		}
		out[r.Round] = r
	}
	return out, bad
}

func cited0(regs map[[32]byte]*Record, cited map[[32]byte]bool) bool {
	for h, r := range regs {
		if !cited[h] && !r.Verify() {
			return false
		}
	}
	return true
}

// sortBy sorts players by key[player] ascending (insertion sort).
func sortBy(players []int, key []int) {
	for i := 1; i < len(players); i++ {
		for j := i; j > 0 && key[players[j]] < key[players[j-1]]; j-- {
			players[j], players[j-1] = players[j-1], players[j]
		}
	}
}

// standings orders the players by points (more first), then total match
// score (more first), then position in the round's draw (earlier first).
func standings(points, scores, pos []int) []Standing {
	out := make([]Standing, len(points))
	for p := range points {
		out[p] = Standing{Player: p, Points: points[p], Score: scores[p], DrawPos: pos[p]}
	}
	better := func(a, b Standing) bool {
		if a.Points != b.Points {
			return a.Points > b.Points
		}
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		return a.DrawPos < b.DrawPos
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && better(out[j], out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	for i := range out {
		out[i].Place = i + 1
	}
	return out
}

// drawPositions gives every roster player its position for the round's
// tie-break: the drawn players by their place in the draw, then the absent
// in roster order.
func drawPositions(n int, draw, absent []int) []int {
	pos := make([]int, n)
	for p, pl := range draw {
		pos[pl] = p
	}
	for i, pl := range absent {
		pos[pl] = len(draw) + i
	}
	return pos
}

// Seatable returns how many of m drawn players the round's tables seat and
// the tables' sizes (9.5): the largest m' <= m that 9.1's sizes seat (3 or
// more, not 5) with every size allowed by the ruleset without teams; 0 and
// no tables when none is.
func Seatable(m int, rs engine.Ruleset) (int, []int) {
	for k := m; k >= MinPlayers; k-- {
		sizes, err := TableSizes(k)
		if err != nil {
			continue
		}
		ok := true
		for _, s := range sizes {
			if rs.CheckPlayers(s) != nil || rs.Teams(s) {
				ok = false
			}
		}
		if ok {
			return k, sizes
		}
	}
	return 0, nil
}

// attemptRecords are one draw attempt's records, by roster index.
type attemptRecords struct {
	commits, reveals []*Record
	close            *Record
}

// checkDraw follows round's draw attempts (9.4) and fills rd's Attempt,
// Active, Absent and, when an attempt stands, Draw and Openings; false when
// the draw cannot be computed (a problem says why: waiting is unfinished,
// a contradiction in signed records names its signer).
func checkDraw(rep *Report, rd *Round, recs []*Record, tid [32]byte, round int, creator Named, named func(int) Named) bool {
	n := len(rep.Players)
	index := map[[32]byte]int{}
	for i, p := range rep.Players {
		index[p.Key] = i
	}
	atts := map[int]*attemptRecords{}
	get := func(a int) *attemptRecords {
		if atts[a] == nil {
			atts[a] = &attemptRecords{commits: make([]*Record, n), reveals: make([]*Record, n)}
		}
		return atts[a]
	}
	ok := true
	for _, r := range recs {
		if r.Round != round || (r.Kind != KindCommit && r.Kind != KindReveal && r.Kind != KindClose) {
			continue
		}
		at := get(r.Attempt)
		if r.Kind == KindClose {
			if r.Signer != creator.Key {
				rep.add(Problem{Status: StatusDamaged, Round: round, Table: -1, Rule: "record", Text: fmt.Sprintf("a draw close for round %d not signed by the creator", round)})
				continue
			}
			if at.close != nil && !bytes.Equal(at.close.body(), r.body()) {
				rep.add(Problem{Status: StatusCheating, Round: round, Table: -1, Rule: "equivocation", Named: []Named{creator},
					Text: fmt.Sprintf("the creator signed two different closes of round %d's draw attempt %d", round, r.Attempt)})
				ok = false
				continue
			}
			at.close = r
			continue
		}
		i, in := index[r.Signer]
		if !in {
			rep.add(Problem{Status: StatusDamaged, Round: round, Table: -1, Rule: "record", Text: fmt.Sprintf("a %s for round %d by %s, who is not on the roster", r.Kind, round, hexKey(r.Signer))})
			continue
		}
		slot := at.commits
		if r.Kind == KindReveal {
			slot = at.reveals
		}
		if prev := slot[i]; prev != nil {
			if !bytes.Equal(prev.body(), r.body()) {
				rep.add(Problem{Status: StatusCheating, Round: round, Table: -1, Rule: "equivocation", Named: []Named{named(i)},
					Text: fmt.Sprintf("%s signed two different %ss for round %d attempt %d", rep.Players[i].Name, r.Kind, round, r.Attempt)})
				ok = false
			}
			continue
		}
		slot[i] = r
	}
	if !ok {
		return false
	}
	names := func(ps []int) []string {
		var out []string
		for _, p := range ps {
			out = append(out, rep.Players[p].Name)
		}
		return out
	}
	active := make([]int, n)
	for i := range active {
		active[i] = i
	}
	for a := 1; a <= MaxAttempts; a++ {
		rd.Attempt, rd.Active = a, active
		if len(active) == 0 {
			rd.Draw, rd.Openings = []int{}, make([][32]byte, n)
			return true
		}
		at := get(a)
		var noCommit, noReveal []int
		cs := make([][32]byte, 0, len(active))
		for _, p := range active {
			if at.commits[p] == nil {
				noCommit = append(noCommit, p)
			} else {
				cs = append(cs, at.commits[p].Commitment)
			}
			if at.reveals[p] == nil {
				noReveal = append(noReveal, p)
			}
		}
		var ch [32]byte
		if len(noCommit) == 0 {
			ch = CommitsHash(tid, round, a, cs)
		}
		// Reveals that do not open their commitment name their signers,
		// whatever the close says (each signed both).
		for _, p := range active {
			if r, c := at.reveals[p], at.commits[p]; r != nil && c != nil && Commitment(tid, round, a, r.Signer, r.Opening) != c.Commitment {
				rep.add(Problem{Status: StatusCheating, Round: round, Table: -1, Rule: "bad-reveal", Named: []Named{named(p)},
					Text: fmt.Sprintf("%s's reveal for round %d attempt %d does not open its commitment", rep.Players[p].Name, round, a)})
				ok = false
			}
		}
		if !ok {
			return false
		}
		c := at.close
		if c == nil {
			var text string
			switch {
			case len(noCommit) > 0:
				text = fmt.Sprintf("round %d's draw (attempt %d) waits for the commitments of %v, or the creator's close; no one is named", round, a, names(noCommit))
			case len(noReveal) > 0:
				text = fmt.Sprintf("round %d's draw (attempt %d) waits for the reveals of %v, or the creator's close; no one is named", round, a, names(noReveal))
			default:
				text = fmt.Sprintf("round %d's draw (attempt %d) waits for the creator's close; no one is named", round, a)
			}
			rep.add(Problem{Status: StatusUnfinished, Round: round, Table: -1, Rule: "silent", Text: text})
			return false
		}
		if !subset(c.Kept, active) {
			rep.add(Problem{Status: StatusCheating, Round: round, Table: -1, Rule: "close", Named: []Named{creator},
				Text: fmt.Sprintf("the creator's close of round %d attempt %d keeps a player the attempt did not have", round, a)})
			return false
		}
		// The creator's close and the creator's own reveal must agree: a
		// reveal says its signer held every commitment.
		if ci, in := index[creator.Key]; in && at.reveals[ci] != nil && contains(active, ci) {
			if c.Commits != at.reveals[ci].Commits {
				rep.add(Problem{Status: StatusCheating, Round: round, Table: -1, Rule: "close", Named: []Named{creator},
					Text: fmt.Sprintf("the creator's close of round %d attempt %d cites other commitments than its own reveal", round, a)})
				return false
			}
		}
		if len(noCommit) == 0 && c.Commits != ([32]byte{}) && c.Commits != ch {
			rep.add(Problem{Status: StatusCheating, Round: round, Table: -1, Rule: "close", Named: []Named{creator},
				Text: fmt.Sprintf("the creator's close of round %d attempt %d cites other commitments than the players signed", round, a)})
			return false
		}
		if len(c.Kept) < len(active) {
			// The attempt failed: the players it does not keep are out of the
			// round; the others draw again with fresh openings.
			if c.Seed != ([32]byte{}) {
				rep.add(Problem{Status: StatusCheating, Round: round, Table: -1, Rule: "close", Named: []Named{creator},
					Text: fmt.Sprintf("the creator's close of round %d attempt %d both keeps the draw and leaves players out", round, a)})
				return false
			}
			var out []int
			for _, p := range active {
				if !contains(c.Kept, p) {
					out = append(out, p)
				}
			}
			rd.Absent = mergeSorted(rd.Absent, out)
			rep.add(Problem{Status: StatusUnfinished, Round: round, Table: -1, Rule: "absent",
				Text: fmt.Sprintf("round %d: the creator closed draw attempt %d without %v (no commitment or reveal it held); absent from the round, 0 points; no one is named", round, a, names(out))})
			// A left-out player whose reveal is in the folder: no record
			// proves when the creator received it, so it is only said.
			for _, p := range out {
				if r := at.reveals[p]; r != nil && len(noCommit) == 0 && r.Commits == ch {
					rep.add(Problem{Status: StatusUnfinished, Round: round, Table: -1, Rule: "late-reveal",
						Text: fmt.Sprintf("round %d: %s's reveal for attempt %d is in the folder, but the creator's close left it out (received too late, or not at all, by the creator: no record proves which); no one is named", round, rep.Players[p].Name, a)})
				}
			}
			active = append([]int(nil), c.Kept...)
			continue
		}
		// The close keeps every player: the draw stands, from the
		// attempt's reveals.
		if len(noCommit) > 0 || len(noReveal) > 0 {
			rep.add(Problem{Status: StatusUnfinished, Round: round, Table: -1, Rule: "silent",
				Text: fmt.Sprintf("round %d's draw stands by the creator's close, but the commitments or reveals of %v are not in the folder; no one is named", round, names(append(noCommit, noReveal...)))})
			return false
		}
		openings := make([][32]byte, n)
		var ops [][32]byte
		for _, p := range active {
			r := at.reveals[p]
			if r.Commits != ch {
				rep.add(Problem{Status: StatusDamaged, Round: round, Table: -1, Rule: "reveal",
					Text: fmt.Sprintf("%s's reveal for round %d cites other commitments than the folder's; no one is named", rep.Players[p].Name, round)})
				return false
			}
			openings[p] = r.Opening
			ops = append(ops, r.Opening)
		}
		seed := Seed(tid, round, a, ops)
		if c.Commits != ch || c.Seed != seed {
			rep.add(Problem{Status: StatusCheating, Round: round, Table: -1, Rule: "close", Named: []Named{creator},
				Text: fmt.Sprintf("the creator's close of round %d attempt %d cites another draw than the players' signed reveals give", round, a)})
			return false
		}
		rd.Cited = make([][32]byte, n)
		for _, p := range active {
			rd.Cited[p] = at.commits[p].Prior
		}
		for _, x := range Draw(seed, len(active)) {
			rd.Draw = append(rd.Draw, active[x])
		}
		rd.Openings = openings
		return true
	}
	return false // not reached: every failed attempt keeps fewer players
}

func contains(s []int, x int) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// subset reports whether every element of a is in b.
func subset(a, b []int) bool {
	for _, x := range a {
		if !contains(b, x) {
			return false
		}
	}
	return true
}

func mergeSorted(a, b []int) []int {
	out := append(append([]int(nil), a...), b...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// scoreTable checks one table's match against the draw and scores it
// (9.5); false when it cannot be scored (missing, damaged, another
// seating).
//
// claim is the table's line of the round's results (nil: none): a copy
// whose chain does not reach it, or differs from it, is cut (damaged); a
// copy that goes further is scored on the chain the claim fixes. blame says
// which players (roster indices) a seating otherwise than drawn may name:
// their own records prove they knew the pairing (9.7 step 5); when none of
// the signers may be named the table is unfinished, not proof.
func scoreTable(rep *Report, tb *Table, m *Match, claim *TableEnd, blame func(int) bool, ruleset string, rs engine.Ruleset, f Format, dir int, named func(int) Named) bool {
	k := len(tb.Seats)
	where := fmt.Sprintf("round %d table %d", tb.Round, tb.Table+1)
	if m == nil {
		tb.State = "missing"
		rep.add(Problem{Status: StatusUnfinished, Round: tb.Round, Table: tb.Table, Rule: "missing",
			Text: where + ": the match's transcript is missing from the folder; no one is named"})
		return false
	}
	if m.TableID != tb.ID || m.Status == StatusDamaged || len(m.Keys) != len(m.Signed) ||
		(m.Scores != nil && len(m.Scores) != len(m.Keys)) {
		tb.State = "damaged"
		rep.add(Problem{Status: StatusDamaged, Round: tb.Round, Table: tb.Table, Rule: "transcript",
			Text: where + ": the transcript is damaged or not this table's; no one is named"})
		return false
	}
	if claim != nil {
		switch {
		case len(m.Chain) < claim.Length || (claim.Length > 0 && m.Chain[claim.Length-1] != claim.Last):
			tb.State = "cut"
			rep.add(Problem{Status: StatusDamaged, Round: tb.Round, Table: tb.Table, Rule: "cut",
				Text: fmt.Sprintf("%s: the transcript's chain (%d records) does not hold the %d records the creator's results fix: a cut file or another copy; no one is named", where, len(m.Chain), claim.Length)})
			return false
		case len(m.Chain) > claim.Length:
			if m.Status == StatusCheating && m.Cheater >= 0 && m.Cheater < len(m.Keys) && m.Cheater < k {
				rep.add(Problem{Status: StatusCheating, Round: tb.Round, Table: tb.Table, Rule: "match", Named: []Named{named(tb.Seats[m.Cheater])},
					Text: where + ": the transcript names a cheater after the records the creator's results fix"})
			}
			var fixed *Match
			if m.Prefix != nil {
				fixed = m.Prefix(claim.Length)
			}
			if fixed == nil {
				tb.State = "damaged"
				rep.add(Problem{Status: StatusDamaged, Round: tb.Round, Table: tb.Table, Rule: "transcript",
					Text: where + ": the transcript goes past the creator's results and cannot be cut to them; no one is named"})
				return false
			}
			rep.add(Problem{Status: StatusUnfinished, Round: tb.Round, Table: tb.Table, Rule: "stale-results",
				Text: fmt.Sprintf("%s: the transcript goes on past the %d chain records the creator's results fix (it held a shorter copy when it signed them); scored as fixed; no one is named", where, claim.Length)})
			m = fixed
		}
	}
	same := m.Ruleset == ruleset && len(m.Keys) == k
	for i := 0; same && i < k; i++ {
		same = m.Keys[i] == rep.Players[tb.Seats[i]].Key
	}
	if !same {
		tb.State = "seating"
		var who []Named
		signed := false
		for i, s := range m.Signed {
			if !s {
				continue
			}
			signed = true
			nm := Named{Key: m.Keys[i], Name: hexKey(m.Keys[i])}
			in := -1
			for j, p := range rep.Players {
				if p.Key == m.Keys[i] {
					nm.Name, in = p.Name, j
				}
			}
			if in < 0 || blame(in) {
				who = append(who, nm)
			}
		}
		if len(who) == 0 && signed {
			rep.add(Problem{Status: StatusUnfinished, Round: tb.Round, Table: tb.Table, Rule: "unfixed-seating",
				Text: where + ": not seated as drawn, but the pairing rests on what no record of its seats fixes (an unfinished table of an earlier round whose copy may be cut, or other round results than the folder's): unfinished; no one is named"})
			return false
		}
		if len(who) == 0 {
			rep.add(Problem{Status: StatusDamaged, Round: tb.Round, Table: tb.Table, Rule: "seating",
				Text: where + ": the transcript's seats or ruleset are not the draw's, and no seat signed under it; no one is named"})
			return false
		}
		rep.add(Problem{Status: StatusCheating, Round: tb.Round, Table: tb.Table, Rule: "seating", Named: who,
			Text: where + ": these seats signed a table config whose seats or ruleset are not the draw's"})
		return false
	}
	tb.Points = make([]int, k)
	tb.Scores = make([]int, k)
	last := m.Scores
	if last == nil {
		last = make([]int, k)
		for i := range last {
			last[i] = rs.StartScore
		}
	}
	for i := range tb.Scores {
		tb.Scores[i] = dir * last[i]
	}
	switch m.Status {
	case StatusHonest:
		if len(m.Places) != k {
			tb.State = "damaged"
			rep.add(Problem{Status: StatusDamaged, Round: tb.Round, Table: tb.Table, Rule: "transcript", Text: where + ": no ranking"})
			return false
		}
		tb.State = "finished"
		for i, p := range m.Places {
			if p >= 1 && p <= 4 {
				tb.Points[i] = f.Points[p-1]
			}
		}
		return true
	case StatusCheating:
		tb.State = "cheating"
		who := -1
		if m.Cheater >= 0 && m.Cheater < k {
			who = m.Cheater
			rep.add(Problem{Status: StatusCheating, Round: tb.Round, Table: tb.Table, Rule: "match", Named: []Named{named(tb.Seats[who])},
				Text: where + ": the transcript names a cheater; it scores 0 points, the others by the last scores"})
		}
		placeExcluding(tb, last, who, dir, f)
		return true
	default:
		tb.State = "unfinished"
		who := -1
		if m.Silent >= 0 && m.Silent < k {
			who = m.Silent
		}
		text := where + ": unfinished; the others placed by the last scores; no one is named"
		if who >= 0 {
			text = fmt.Sprintf("%s: unfinished, %s was to speak next and scores 0 points; the others placed by the last scores; no one is named",
				where, rep.Players[tb.Seats[who]].Name)
		}
		rep.add(Problem{Status: StatusUnfinished, Round: tb.Round, Table: tb.Table, Rule: "unfinished", Text: text})
		placeExcluding(tb, last, who, dir, f)
		return true
	}
}

// placeExcluding is the scoring rule for a match that did not finish
// (9.5): the seat out (silent or named; -1 none) gets 0 points; every other
// seat's place is 1 + the number of other such seats with a better last
// score in the ruleset's direction, and it gets that place's points.
func placeExcluding(tb *Table, last []int, out, dir int, f Format) {
	for i := range tb.Points {
		tb.Points[i] = 0
		if i == out {
			continue
		}
		place := 1
		for j := range last {
			if j != out && j != i && dir*last[j] > dir*last[i] {
				place++
			}
		}
		tb.Points[i] = f.Points[place-1]
	}
}
