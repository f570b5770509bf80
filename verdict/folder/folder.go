// Package folder is what okey verify says of a tournament folder
// (protocol.md 9.6): its draws, tables, standings and findings as text in
// the interface's language, or as one JSON object in English. The folder
// is read by participant.LoadFolder and checked by tournament.Check.
package folder

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/tournament/participant"
)

// Verify checks a tournament folder and prints its draws, tables,
// standings and findings (one JSON object with asJSON); it returns okey
// verify's exit status.
func Verify(dir string, asJSON bool, stdout io.Writer) int {
	recs, matches, err := participant.LoadFolder(dir)
	if err != nil {
		if asJSON {
			json.NewEncoder(stdout).Encode(map[string]any{"folder": dir, "status": 2, "error": err.Error()})
		} else {
			fmt.Fprint(stdout, i18n.T("%s: tournament records unreadable: %v\n", dir, err))
		}
		return 2
	}
	rep := tournament.Check(recs, matches)
	if asJSON {
		json.NewEncoder(stdout).Encode(tournamentJSON(dir, rep))
		return rep.Status
	}
	var b bytes.Buffer
	Print(&b, rep)
	stdout.Write(b.Bytes())
	return rep.Status
}

// Print writes a report as text. It never prints a path or
// anything else of one machine, so that every participant's output on the
// same files is the same, byte for byte.
func Print(w io.Writer, rep *tournament.Report) {
	name := func(p int) string {
		if p >= 0 && p < len(rep.Players) {
			return rep.Players[p].Name
		}
		return "?"
	}
	fmt.Fprint(w, i18n.T("tournament %q (id %x): %s, %s, %d players\n", rep.Name, rep.ID[:4], rep.Format.String(), rep.Ruleset, len(rep.Players)))
	for i, p := range rep.Players {
		fmt.Fprintf(w, "  %d. %s %x\n", i+1, p.Name, p.Key[:4])
	}
	for _, rd := range rep.Rounds {
		if rd.Draw == nil {
			fmt.Fprint(w, i18n.T("round %d: not drawn\n", rd.Number))
			continue
		}
		var names []string
		for _, p := range rd.Draw {
			names = append(names, name(p))
		}
		fmt.Fprint(w, i18n.T("round %d: draw %s\n", rd.Number, strings.Join(names, ", ")))
		if len(rd.Absent) > 0 {
			var out []string
			for _, p := range rd.Absent {
				out = append(out, name(p))
			}
			fmt.Fprint(w, i18n.T("  absent (left out of the draw, 0 points): %s\n", strings.Join(out, ", ")))
		}
		if len(rd.Byes) > 0 {
			var out []string
			for _, p := range rd.Byes {
				out = append(out, name(p))
			}
			fmt.Fprint(w, i18n.T("  byes (no table could seat them, %d points): %s\n", rep.Format.Points[1], strings.Join(out, ", ")))
		}
		for _, tb := range rd.Tables {
			var seats []string
			for i, p := range tb.Seats {
				if tb.Points != nil {
					seats = append(seats, i18n.T("%s (points %d, score %d)", name(p), tb.Points[i], tb.Scores[i]))
				} else {
					seats = append(seats, name(p))
				}
			}
			fmt.Fprint(w, i18n.T("  table %d (%x): %s: %s\n", tb.Table+1, tb.ID[:4], TableState(tb.State), strings.Join(seats, ", ")))
		}
		if rd.Standings != nil {
			fmt.Fprint(w, i18n.T("  standings after round %d:\n", rd.Number))
			PrintStandings(w, rd.Standings, name)
		}
	}
	if rep.Final != nil {
		fmt.Fprintln(w, i18n.T("final standings:"))
		PrintStandings(w, rep.Final, name)
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(w, "%s\n", ProblemText(rep, p))
	}
	switch rep.Status {
	case tournament.StatusHonest:
		fmt.Fprintln(w, i18n.T("verdict: honest and complete"))
	case tournament.StatusCheating:
		fmt.Fprintln(w, i18n.T("verdict: CHEATING, named on proof signed by the named"))
	case tournament.StatusDamaged:
		fmt.Fprintln(w, i18n.T("verdict: damaged or altered; no one is named for it"))
	default:
		fmt.Fprintln(w, i18n.T("verdict: unfinished or incomplete; no one is named for it"))
	}
}

// PrintRound writes round's tables (1 from the first) and the standings
// after it, as a participant prints them when the round is done.
func PrintRound(w io.Writer, rep *tournament.Report, round int) {
	rd := rep.Rounds[round-1]
	fmt.Fprint(w, i18n.T("round %d of %d done:\n", round, rep.Format.Rounds))
	for _, tb := range rd.Tables {
		fmt.Fprint(w, i18n.T("  table %d (%x): %s\n", tb.Table+1, tb.ID[:4], TableState(tb.State)))
	}
	PrintStandings(w, rd.Standings, func(p int) string { return rep.Players[p].Name })
}

// PrintStandings writes standings, one line a player, name naming them.
func PrintStandings(w io.Writer, st []tournament.Standing, name func(int) string) {
	for _, s := range st {
		fmt.Fprint(w, i18n.T("    %d. %s: points %d, match score %d, draw position %d\n", s.Place, name(s.Player), s.Points, s.Score, s.DrawPos+1))
	}
}

// TableState is a table's state (tournament.TableReport.State) for a
// person.
func TableState(s string) string {
	switch s {
	case "finished":
		return i18n.T("finished")
	case "unfinished":
		return i18n.T("unfinished (the scoring rule)")
	case "cheating":
		return i18n.T("a seat named (the scoring rule)")
	case "missing":
		return i18n.T("missing")
	case "damaged":
		return i18n.T("damaged")
	case "cut":
		return i18n.T("cut (shorter than the round's results)")
	}
	return i18n.T("not seated as drawn")
}

// ProblemText is a finding for a person, in the interface's language.
func ProblemText(rep *tournament.Report, p tournament.Problem) string {
	var who []string
	for _, n := range p.Named {
		if n.Creator {
			who = append(who, i18n.T("the creator"))
		} else {
			who = append(who, fmt.Sprintf("%s %x", n.Name, n.Key[:4]))
		}
	}
	names := strings.Join(who, ", ")
	where := ""
	switch {
	case p.Round > 0 && p.Table >= 0:
		where = i18n.T("round %d table %d: ", p.Round, p.Table+1)
	case p.Round > 0:
		where = i18n.T("round %d: ", p.Round)
	}
	var s string
	switch p.Rule {
	case "equivocation":
		s = i18n.T("CHEATING: %s signed two different records for one place", names)
	case "roster":
		if p.Status == tournament.StatusCheating {
			s = i18n.T("CHEATING: %s signed a roster of another size than announced", names)
		} else {
			s = i18n.T("registration never closed (no roster)")
		}
	case "forged-registration":
		s = i18n.T("CHEATING: %s signed a roster citing a registration its player did not sign", names)
	case "bad-reveal":
		s = i18n.T("CHEATING: %s revealed a value that does not open its commitment", names)
	case "seating":
		if p.Status == tournament.StatusCheating {
			s = i18n.T("CHEATING: %s signed a table that is not the draw's", names)
		} else {
			s = i18n.T("the transcript is not seated as drawn, and no seat signed under it; no one is named")
		}
	case "unfixed-seating":
		s = i18n.T("the tables are not seated as the standings say, but those standings rest on what no record of the seats fixes (an unfinished earlier table whose copy may be cut, or other round results): unfinished; no one is named")
	case "cut":
		s = i18n.T("the transcript is shorter than the creator's round results fix, or another copy: a cut file; no one is named")
	case "stale-results":
		s = i18n.T("the transcript goes on past what the creator's round results fix (it held a shorter copy): scored as fixed; no one is named")
	case "results":
		if p.Status == tournament.StatusCheating {
			s = i18n.T("CHEATING: %s signed round results for another number of tables than the draw seats", names)
		} else {
			s = i18n.T("the round's results are not in the folder: its standings wait for the creator; no one is named")
		}
	case "prior":
		s = i18n.T("a player's draw commitment cites other round results than the folder's (the creator may have signed two); no one is named")
	case "match":
		s = i18n.T("CHEATING: the match's transcript names %s; 0 points for that seat", names)
	case "silent":
		s = i18n.T("the draw waits for a player's commitment or reveal; no one is named")
	case "absent":
		s = i18n.T("the creator closed a draw attempt without players whose commitment or reveal it lacked: absent from the round, 0 points; no one is named")
	case "late-reveal":
		s = i18n.T("a player's reveal is in the folder, but the creator's close left it out: the creator may have received it too late; no one is named")
	case "close":
		s = i18n.T("CHEATING: %s signed a draw close that contradicts the signed records", names)
	case "missing":
		s = i18n.T("the match's transcript is missing; no one is named")
	case "unfinished":
		s = i18n.T("the match is unfinished: the silent seat scores 0 points, the others by the last scores; no one is named")
	case "pairing":
		s = i18n.T("the tables cannot be checked: an earlier round's standings are not defined (a match missing or damaged, or its results not in the folder)")
	case "transcript":
		s = i18n.T("the match's transcript is damaged or another table's; no one is named")
	case "reveal":
		s = i18n.T("a reveal cites other commitments than the folder's; no one is named")
	case "registration":
		s = i18n.T("a registration the roster cites is missing; no one is named")
	case "signature":
		s = i18n.T("a record's signature does not verify; no one is named")
	default:
		s = i18n.T("a record does not decode or is another tournament's; no one is named")
	}
	return where + s
}

// The JSON of okey verify --json on a tournament folder: the report's
// content with every id, key and opening as lowercase hexadecimal (as --id takes a tournament id and protocol.md 7.4
// names a table's topic), player references as roster indices (from 0),
// texts in English.
type (
	jsonTournament struct {
		Folder   string        `json:"folder"`
		Status   int           `json:"status"`
		ID       string        `json:"id"`
		Name     string        `json:"name"`
		Format   string        `json:"format"`
		Ruleset  string        `json:"ruleset"`
		Creator  string        `json:"creator"`
		Players  []jsonPlayer  `json:"players"`
		Rounds   []jsonRound   `json:"rounds"`
		Final    []jsonStand   `json:"final,omitempty"`
		Problems []jsonProblem `json:"problems"`
	}
	jsonPlayer struct {
		Key    string `json:"key"`
		Name   string `json:"name"`
		PeerID string `json:"peer_id,omitempty"`
	}
	jsonRound struct {
		Number    int         `json:"number"`
		Attempt   int         `json:"attempt"`
		Active    []int       `json:"active"`
		Absent    []int       `json:"absent,omitempty"`
		Draw      []int       `json:"draw,omitempty"`
		Openings  []string    `json:"openings,omitempty"` // by roster index; "" for the absent
		Tables    []jsonTable `json:"tables,omitempty"`
		Byes      []int       `json:"byes,omitempty"`
		Standings []jsonStand `json:"standings,omitempty"`
	}
	jsonTable struct {
		Table  int    `json:"table"` // from 0
		ID     string `json:"id"`
		Seats  []int  `json:"seats"`
		State  string `json:"state"`
		Points []int  `json:"points,omitempty"`
		Scores []int  `json:"scores,omitempty"`
	}
	jsonStand struct {
		Player  int `json:"player"`
		Place   int `json:"place"`
		Points  int `json:"points"`
		Score   int `json:"score"`
		DrawPos int `json:"draw_position"` // from 0
	}
	jsonProblem struct {
		Status int         `json:"status"`
		Round  int         `json:"round,omitempty"`
		Table  *int        `json:"table,omitempty"`
		Rule   string      `json:"rule"`
		Named  []jsonNamed `json:"named,omitempty"`
		Text   string      `json:"text"`
	}
	jsonNamed struct {
		Key     string `json:"key"`
		Name    string `json:"name"`
		Creator bool   `json:"creator,omitempty"`
	}
)

func tournamentJSON(dir string, rep *tournament.Report) jsonTournament {
	hex := func(b []byte) string { return fmt.Sprintf("%x", b) }
	stands := func(st []tournament.Standing) []jsonStand {
		var out []jsonStand
		for _, s := range st {
			out = append(out, jsonStand{Player: s.Player, Place: s.Place, Points: s.Points, Score: s.Score, DrawPos: s.DrawPos})
		}
		return out
	}
	j := jsonTournament{Folder: dir, Status: rep.Status, Name: rep.Name, Ruleset: rep.Ruleset, Players: []jsonPlayer{}, Rounds: []jsonRound{},
		Problems: []jsonProblem{}, Final: stands(rep.Final)}
	if rep.ID != ([32]byte{}) {
		j.ID, j.Creator, j.Format = hex(rep.ID[:]), hex(rep.Creator[:]), rep.Format.String()
	}
	for _, p := range rep.Players {
		j.Players = append(j.Players, jsonPlayer{Key: hex(p.Key[:]), Name: p.Name, PeerID: p.PeerID})
	}
	for _, rd := range rep.Rounds {
		r := jsonRound{Number: rd.Number, Attempt: rd.Attempt, Active: rd.Active, Absent: rd.Absent, Draw: rd.Draw, Byes: rd.Byes,
			Standings: stands(rd.Standings)}
		if r.Active == nil {
			r.Active = []int{}
		}
		if rd.Openings != nil {
			for i, o := range rd.Openings {
				if slices.Contains(rd.Draw, i) {
					r.Openings = append(r.Openings, hex(o[:]))
				} else {
					r.Openings = append(r.Openings, "")
				}
			}
		}
		for _, tb := range rd.Tables {
			r.Tables = append(r.Tables, jsonTable{Table: tb.Table, ID: hex(tb.ID[:]), Seats: tb.Seats, State: tb.State, Points: tb.Points, Scores: tb.Scores})
		}
		j.Rounds = append(j.Rounds, r)
	}
	for _, p := range rep.Problems {
		jp := jsonProblem{Status: p.Status, Round: p.Round, Rule: p.Rule, Text: p.Text}
		if p.Table >= 0 {
			t := p.Table
			jp.Table = &t
		}
		for _, n := range p.Named {
			jp.Named = append(jp.Named, jsonNamed{Key: hex(n.Key[:]), Name: n.Name, Creator: n.Creator})
		}
		j.Problems = append(j.Problems, jp)
	}
	return j
}
