package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/okey-game/okey/chat"
	"github.com/okey-game/okey/cmd/okey/internal/conformance"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/tournament/participant"
	"github.com/okey-game/okey/verdict"
	"github.com/okey-game/okey/verdict/folder"
)

func init() {
	register(command{name: "verify", summary: i18n.Mark("check a match transcript offline and name any cheater"), run: runVerify})
}

func runVerify(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, helpText("verify")) }
	asJSON := fs.Bool("json", false, i18n.T("one JSON object per file"))
	suite := fs.String("conformance", "", i18n.T("run the conformance suite in this directory"))
	htmlOut := fs.String("html", "", i18n.T("write a page that checks a transcript in any browser"))
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *htmlOut != "" {
		if fs.NArg() > 1 || *asJSON || *suite != "" {
			fmt.Fprintln(stderr, i18n.T("okey: --html takes the page's file and at most one transcript"))
			return 2
		}
		return writeVerifyPage(*htmlOut, fs.Arg(0), stdout, stderr)
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
		if participant.IsFolder(path) {
			status = verdict.Worst(status, folder.Verify(path, *asJSON, stdout))
			continue
		}
		if chat.IsFile(path) {
			// A table's chat, kept beside its transcript: no part of the
			// verdict (protocol.md 7.13), never read.
			emitVerify(stdout, stderr, *asJSON, verdict.Result{File: path, Skipped: "chat", Verdict: "skipped"})
			continue
		}
		out := verdict.File(path)
		status = verdict.Worst(status, out.Status)
		emitVerify(stdout, stderr, *asJSON, out)
	}
	return status
}

func emitVerify(stdout, _ io.Writer, asJSON bool, o verdict.Result) {
	if asJSON {
		fmt.Fprint(stdout, o.JSON())
		return
	}
	fmt.Fprint(stdout, o.Text())
}
