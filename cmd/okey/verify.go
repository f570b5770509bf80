package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/okey-game/okey/cmd/okey/internal/conformance"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/p2p/chat"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tourney"
	"github.com/okey-game/okey/ui"
)

func init() {
	register(command{name: "verify", summary: i18n.Mark("check a match transcript offline and name any cheater"), run: runVerify})
}

const verifyUsage = `usage: okey verify [--json] FILE...
       okey verify --conformance DIR

Replays each transcript: signatures and chain, every proof, the audits, every
move against the rules, the scores, then the evidence kept in the file. A seat
is named only on proof signed by that seat.

Exit status (with several files, the one that matters most: 1 before 2,
2 before 3, 3 before 0):
  0  honest and complete
  1  a seat is named on proof signed by that seat (the report says which
     rule and shows the evidence)
  2  unreadable, not a transcript, or damaged or altered so that no one can
     be named (a record that does not decode, verify or link)
  3  unfinished: the chain stops before the match's end (a cut file, a
     seat that stopped answering, rules that could not go on); honest as far
     as it goes, with who was to speak next. Silence is never proof.

With --conformance DIR, runs the conformance suite in DIR (protocol.md 8;
the repository's is testdata/conformance): every transcript against its
expected verdict and every vector file, one line per case; exit 0 when all
agree, 1 when one does not, 2 when the suite cannot be read.
`

type verifyJSON struct {
	File     string     `json:"file"`
	Honest   bool       `json:"honest"`
	Ruleset  string     `json:"ruleset,omitempty"`
	Seats    []string   `json:"seats,omitempty"`
	Steps    int        `json:"steps"`
	Hands    int        `json:"hands"`
	Scores   []int      `json:"scores,omitempty"`
	Status   int        `json:"status"`
	Verdict  string     `json:"verdict"`
	Cheater  *int       `json:"cheater,omitempty"`
	Next     *int       `json:"next,omitempty"`
	NextKind string     `json:"next_kind,omitempty"`
	Reason   string     `json:"reason,omitempty"`
	Rule     table.Rule `json:"rule,omitempty"`
	Step     *uint32    `json:"step,omitempty"`
	Evidence string     `json:"evidence,omitempty"`
	Error    string     `json:"error,omitempty"`
	Cut      bool       `json:"cut,omitempty"`     // the file ends inside a record: read up to its last whole one
	Skipped  string     `json:"skipped,omitempty"` // "chat": a table's chat file, not read (protocol.md 7.13)

	errText      string // Error for a person, in the interface's language
	evidenceText string // Evidence for a person, in the interface's language
}

func runVerify(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, i18n.T(verifyUsage)+i18n.T(verifyFolderUsage)) }
	asJSON := fs.Bool("json", false, i18n.T("one JSON object per file"))
	suite := fs.String("conformance", "", i18n.T("run the conformance suite in this directory"))
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *suite != "" {
		if fs.NArg() > 0 || *asJSON {
			fmt.Fprintln(stderr, i18n.T("okey: --conformance takes a directory and nothing else"))
			return 2
		}
		failed, err := conformance.Run(*suite, stdout)
		if err != nil {
			fmt.Fprint(stderr, i18n.T("okey: conformance suite: %v\n", err))
			return 2
		}
		if failed > 0 {
			fmt.Fprint(stdout, i18n.T("%d failed\n", failed))
			return 1
		}
		fmt.Fprintln(stdout, i18n.T("every case agrees"))
		return 0
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	status := 0
	for _, path := range fs.Args() {
		if tourney.IsFolder(path) {
			status = worstStatus(status, verifyTournament(path, *asJSON, stdout))
			continue
		}
		out := verifyJSON{File: path}
		if isChatFile(path) {
			// A table's chat, kept beside its transcript: no part of the
			// verdict (protocol.md 7.13), never read.
			out.Skipped, out.Verdict = "chat", "skipped"
			emitVerify(stdout, stderr, *asJSON, out)
			continue
		}
		t, cut, err := readTranscript(path)
		out.Cut = cut
		if err != nil {
			out.Error, out.errText = err.Error(), localErr(err)
			out.Status, out.Verdict = int(table.StatusInvalid), table.StatusInvalid.String()
			status = worstStatus(status, 2)
			emitVerify(stdout, stderr, *asJSON, out)
			continue
		}
		rep := table.Verify(t)
		out.Honest, out.Ruleset, out.Seats, out.Steps, out.Hands = rep.Honest, rep.Ruleset, rep.Seats, rep.Steps, len(rep.Hands)
		if n := len(rep.Hands); n > 0 {
			out.Scores = rep.Hands[n-1].Scores
		}
		if v := rep.Violation; v != nil {
			seat, step := v.Seat, v.Step
			out.Cheater, out.Rule, out.Step = &seat, v.Rule, &step
			out.Evidence, out.evidenceText = ui.Plain(v.Err), ui.Evidence(v.Err)
		}
		if rep.Invalid != nil {
			out.Error, out.errText = ui.Plain(rep.Invalid), ui.Explain(rep.Invalid)
		}
		if n := rep.Next; n != nil {
			seat := n.Seat
			out.Next, out.NextKind = &seat, n.Kind.String()
			step := n.Step
			out.Step = &step
		}
		if f := rep.Failure; f != nil {
			out.Reason = "the rules could not go on: " + ui.Plain(f.Err)
		}
		out.Status, out.Verdict = int(rep.Status()), rep.Status().String()
		status = worstStatus(status, out.Status)
		emitVerify(stdout, stderr, *asJSON, out)
	}
	return status
}

// isChatFile reports whether path starts as a chat file does (protocol.md
// 7.13).
func isChatFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(chat.FileMagic))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == chat.FileMagic
}

// worstStatus is the one exit status for several verdicts (verify's
// statuses): what matters most wins, a named cheater (1) before a damaged
// file (2), before an unfinished one (3), before honest (0), so that no
// named cheater hides behind a cut file.
func worstStatus(a, b int) int {
	rank := func(s int) int {
		switch s {
		case 1:
			return 3
		case 2:
			return 2
		case 3:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

func emitVerify(stdout, stderr io.Writer, asJSON bool, o verifyJSON) {
	if asJSON {
		json.NewEncoder(stdout).Encode(o)
		return
	}
	if o.Skipped != "" {
		fmt.Fprint(stdout, i18n.T("%s: a table's chat, not a transcript: skipped (it is no part of a verdict)\n", o.File))
		return
	}
	seatName := func(seat int) string {
		if seat >= 0 && seat < len(o.Seats) {
			return i18n.T("seat %d (%s)", seat, o.Seats[seat])
		}
		return i18n.T("seat %d", seat)
	}
	switch table.Status(o.Status) {
	case table.StatusHonest:
		fmt.Fprint(stdout, i18n.T("%s: honest: %s, %d players, %s, %s; final scores %v\n",
			o.File, ui.RulesetName(o.Ruleset), len(o.Seats), i18n.T("%d hands", o.Hands), i18n.T("%d messages", o.Steps), o.Scores))
	case table.StatusCheating:
		fmt.Fprint(stdout, i18n.T("%s: CHEATING: %s broke %s at message %d: %s\n", o.File, seatName(*o.Cheater), ui.RuleName(o.Rule), *o.Step, o.evidenceText))
	case table.StatusUnfinished:
		if o.Cut {
			o.File += " " + i18n.T("(cut short inside its last record)")
		}
		reason := o.Reason // English in --json
		if rest, ok := strings.CutPrefix(reason, "the rules could not go on: "); ok {
			reason = i18n.T("the rules could not go on: %s", rest)
		}
		if o.Next != nil {
			fmt.Fprint(stdout, i18n.T("%s: unfinished, honest so far: %s, %s; %s was to send the next message (a %s); no one is named\n",
				o.File, i18n.T("%d messages", o.Steps), i18n.T("%d finished hands", o.Hands), seatName(*o.Next), ui.KindNameOf(o.NextKind)))
		} else {
			fmt.Fprint(stdout, i18n.T("%s: unfinished, honest so far: %s, %s; %s; no one is named\n",
				o.File, i18n.T("%d messages", o.Steps), i18n.T("%d finished hands", o.Hands), reason))
		}
	default:
		if o.Cut {
			o.errText += " " + i18n.T("(and the file is cut short)")
		}
		if o.Steps > 0 || o.Ruleset != "" {
			fmt.Fprint(stdout, i18n.T("%s: does not hold (damaged or altered; no one is named): %s\n", o.File, o.errText))
		} else {
			fmt.Fprint(stdout, i18n.T("%s: unreadable: %s\n", o.File, o.errText))
		}
	}
}
