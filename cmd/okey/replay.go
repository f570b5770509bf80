package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
)

func init() {
	register(command{name: "replay", summary: "step through a match transcript move by move, every rack visible", run: runReplay})
}

const replayUsage = `usage: okey replay FILE

Verifies the transcript, then shows it move by move at the terminal with every
rack open (each hand's audit reveals all its tiles). Keys: right/left step,
down/up change hand, home/end, q quit. A transcript that does not verify is
shown up to where it stops holding, with the verdict. Exit 2 when the file is
unreadable or not a transcript.
`

func runReplay(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, replayUsage) }
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	path := fs.Arg(0)
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintf(stderr, "okey: %v\n", err)
		return 2
	}
	t, err := table.ReadTranscript(f)
	f.Close()
	if err != nil {
		fmt.Fprintf(stderr, "okey: %s: %v\n", path, err)
		return 2
	}
	r, err := ui.LoadReplay(t)
	if err != nil {
		fmt.Fprintf(stderr, "okey: %s: %v\n", path, err)
		return 2
	}
	if err := ui.RunReplay(r, ui.Options{}); err != nil {
		fmt.Fprintf(stderr, "okey: the terminal: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "okey: %s: %s\n", path, ui.Verdict(r.Report))
	return 0
}
