package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
	"github.com/okey-game/okey/verdict"
	"github.com/okey-game/okey/web"
)

func init() {
	register(command{name: "replay", summary: i18n.Mark("step through a match transcript move by move, every rack visible"), run: runReplay})
}

func runReplay(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, helpText("replay")) }
	webFlag := fs.Bool("web", false, i18n.T("show the replay in your web browser, served by this process at http://127.0.0.1"))
	noOpen := fs.Bool("no-open", false, i18n.T("with --web: print the table's address, do not open the browser"))
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	path := fs.Arg(0)
	t, cut, err := verdict.Read(path)
	if err != nil {
		fmt.Fprintf(stderr, "okey: %s: %s\n", path, verdict.LocalErr(err))
		return 2
	}
	r, err := ui.LoadReplay(t)
	if err != nil {
		// Nothing to show (a file cut before its first hand): say what
		// verify says, with its status.
		rep := table.Verify(t)
		fmt.Fprintf(stderr, "okey: %s: %s\n", path, ui.Explain(err))
		fmt.Fprintf(stdout, "okey: %s: %s%s\n", path, ui.Verdict(rep), cutNote(cut))
		return int(rep.Status())
	}
	if *webFlag {
		if err := serveFrames(context.Background(), web.NewReplayPage(r), *noOpen, stdout, stderr); err != nil {
			return 2
		}
	} else if err := replayAt(r, ui.Options{}); err != nil {
		fmt.Fprint(stderr, i18n.T("okey: no terminal to replay at: %v\n", err))
		return 2
	}
	fmt.Fprintf(stdout, "okey: %s: %s%s\n", path, ui.Verdict(r.Report), cutNote(cut))
	return int(r.Report.Status()) // verify's exit status
}

// replayAt runs the replay at the terminal (tests replace it).
var replayAt = ui.RunReplay

func cutNote(cut bool) string {
	if cut {
		return " " + i18n.T("(the file is cut short inside its last record)")
	}
	return ""
}
