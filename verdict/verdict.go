package verdict

import (
	"encoding/json"
	"strings"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui/tablemodel"
)

// Result is the verdict on one file, as okey verify --json prints it (the
// field names are the JSON output's, protocol.md 8); Text says it for a
// person.
type Result struct {
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

// File is the verdict on the transcript file at path.
func File(path string) Result {
	t, cut, err := Read(path)
	return Of(path, t, cut, err)
}

// Bytes is the verdict on a transcript file's bytes, named name.
func Bytes(name string, data []byte) Result {
	t, cut, err := Parse(data)
	return Of(name, t, cut, err)
}

// Of is the verdict on a transcript read (by Read or Parse) from the file
// named name: err is the reading's error, if any.
func Of(name string, t *table.Transcript, cut bool, err error) Result {
	out := Result{File: name, Cut: cut}
	if err != nil {
		out.Error, out.errText = err.Error(), LocalErr(err)
		out.Status, out.Verdict = int(table.StatusInvalid), table.StatusInvalid.String()
		return out
	}
	rep := table.Verify(t)
	out.Honest, out.Ruleset, out.Seats, out.Steps, out.Hands = rep.Honest, rep.Ruleset, rep.Seats, rep.Steps, len(rep.Hands)
	if n := len(rep.Hands); n > 0 {
		out.Scores = rep.Hands[n-1].Scores
	}
	if v := rep.Violation; v != nil {
		seat, step := v.Seat, v.Step
		out.Cheater, out.Rule, out.Step = &seat, v.Rule, &step
		out.Evidence, out.evidenceText = tablemodel.Plain(v.Err), tablemodel.Evidence(v.Err)
	}
	if rep.Invalid != nil {
		out.Error, out.errText = tablemodel.Plain(rep.Invalid), tablemodel.Explain(rep.Invalid)
	}
	if n := rep.Next; n != nil {
		seat := n.Seat
		out.Next, out.NextKind = &seat, n.Kind.String()
		step := n.Step
		out.Step = &step
	}
	if f := rep.Failure; f != nil {
		out.Reason = "the rules could not go on: " + tablemodel.Plain(f.Err)
	}
	out.Status, out.Verdict = int(rep.Status()), rep.Status().String()
	return out
}

// JSON is the result as one line of okey verify --json.
func (o Result) JSON() string {
	b, err := json.Marshal(o)
	if err != nil {
		panic("verdict: internal error: " + err.Error())
	}
	return string(b) + "\n"
}

// Text is the verdict for a person, one line in the interface's language,
// as okey verify prints it.
func (o Result) Text() string {
	seatName := func(seat int) string {
		if seat >= 0 && seat < len(o.Seats) {
			return i18n.T("seat %d (%s)", seat, o.Seats[seat])
		}
		return i18n.T("seat %d", seat)
	}
	if o.Skipped != "" {
		return i18n.T("%s: a table's chat, not a transcript: skipped (it is no part of a verdict)\n", o.File)
	}
	switch table.Status(o.Status) {
	case table.StatusHonest:
		return i18n.T("%s: honest: %s, %d players, %s, %s; final scores %v\n",
			o.File, tablemodel.RulesetName(o.Ruleset), len(o.Seats), i18n.T("%d hands", o.Hands), i18n.T("%d messages", o.Steps), o.Scores)
	case table.StatusCheating:
		return i18n.T("%s: CHEATING: %s broke %s at message %d: %s\n", o.File, seatName(*o.Cheater), tablemodel.RuleName(o.Rule), *o.Step, o.evidenceText)
	case table.StatusUnfinished:
		if o.Cut {
			o.File += " " + i18n.T("(cut short inside its last record)")
		}
		reason := o.Reason // English in --json
		if rest, ok := strings.CutPrefix(reason, "the rules could not go on: "); ok {
			reason = i18n.T("the rules could not go on: %s", rest)
		}
		if o.Next != nil {
			return i18n.T("%s: unfinished, honest so far: %s, %s; %s was to send the next message (a %s); no one is named\n",
				o.File, i18n.T("%d messages", o.Steps), i18n.T("%d finished hands", o.Hands), seatName(*o.Next), tablemodel.KindNameOf(o.NextKind))
		}
		return i18n.T("%s: unfinished, honest so far: %s, %s; %s; no one is named\n",
			o.File, i18n.T("%d messages", o.Steps), i18n.T("%d finished hands", o.Hands), reason)
	default:
		if o.Cut {
			o.errText += " " + i18n.T("(and the file is cut short)")
		}
		if o.Steps > 0 || o.Ruleset != "" {
			return i18n.T("%s: does not hold (damaged or altered; no one is named): %s\n", o.File, o.errText)
		}
		return i18n.T("%s: unreadable: %s\n", o.File, o.errText)
	}
}

// Worst is the one exit status for several verdicts (verify's statuses):
// what matters most wins, a named cheater (1) before a damaged file (2),
// before an unfinished one (3), before honest (0), so that no named cheater
// hides behind a cut file.
func Worst(a, b int) int {
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
