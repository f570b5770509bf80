package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/okey-game/okey/table"
)

func init() {
	register(command{name: "verify", summary: "check a match transcript offline and name any cheater", run: runVerify})
}

const verifyUsage = `usage: okey verify [--json] FILE...

Replays each transcript: signatures and chain, every proof, the audits, every
move against the rules, the scores. Exit 0 when every file holds, 1 when a
player cheated or a file does not hold (the report names who and why), 2 when
a file is unreadable or not a transcript.
`

type verifyJSON struct {
	File     string   `json:"file"`
	Honest   bool     `json:"honest"`
	Ruleset  string   `json:"ruleset,omitempty"`
	Seats    []string `json:"seats,omitempty"`
	Steps    int      `json:"steps"`
	Hands    int      `json:"hands"`
	Scores   []int    `json:"scores,omitempty"`
	Cheater  *int     `json:"cheater,omitempty"`
	Rule     string   `json:"rule,omitempty"`
	Step     *uint32  `json:"step,omitempty"`
	Evidence string   `json:"evidence,omitempty"`
	Error    string   `json:"error,omitempty"`
}

func runVerify(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, verifyUsage) }
	asJSON := fs.Bool("json", false, "one JSON object per file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	status := 0
	for _, path := range fs.Args() {
		out := verifyJSON{File: path}
		f, err := os.Open(path)
		var t *table.Transcript
		if err == nil {
			t, err = table.ReadTranscript(f)
			f.Close()
		}
		if err != nil {
			out.Error = err.Error()
			status = 2
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
			out.Evidence = v.Err.Error()
		}
		if rep.Invalid != nil {
			out.Error = rep.Invalid.Error()
		}
		if !rep.Honest && status == 0 {
			status = 1
		}
		emitVerify(stdout, stderr, *asJSON, out)
	}
	return status
}

func emitVerify(stdout, stderr io.Writer, asJSON bool, o verifyJSON) {
	if asJSON {
		json.NewEncoder(stdout).Encode(o)
		return
	}
	switch {
	case o.Honest:
		fmt.Fprintf(stdout, "%s: honest: %s, %d players, %d hands, %d messages; final scores %v\n",
			o.File, o.Ruleset, len(o.Seats), o.Hands, o.Steps, o.Scores)
	case o.Cheater != nil:
		name := ""
		if *o.Cheater >= 0 && *o.Cheater < len(o.Seats) {
			name = " (" + o.Seats[*o.Cheater] + ")"
		}
		fmt.Fprintf(stdout, "%s: CHEATING: seat %d%s broke %s at message %d: %s\n", o.File, *o.Cheater, name, o.Rule, *o.Step, o.Evidence)
	default:
		fmt.Fprintf(stderr, "okey: %s: %s\n", o.File, o.Error)
		if o.Steps > 0 || o.Ruleset != "" {
			fmt.Fprintf(stdout, "%s: does not hold: %s\n", o.File, o.Error)
		}
	}
}
