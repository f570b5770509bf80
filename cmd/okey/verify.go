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

const verifyUsage = `usage: okey verify [--json] FILE...
       okey verify --conformance DIR
       okey verify --html OUT.html [FILE]

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

With --html OUT.html, writes one page that checks a transcript in any
browser, offline, with this same verifier compiled to WebAssembly: send it
to a friend who has no okey. With FILE, the page holds that transcript and
checks it when opened (and okey verify checks it here too, with its exit
status); any transcript dropped on the page is checked as well. The
verifier is okey-verify.wasm beside okey (make build writes it) or the file
$OKEY_VERIFY_WASM names.
`

func runVerify(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, i18n.T(verifyUsage)+i18n.T(verifyFolderUsage)) }
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
