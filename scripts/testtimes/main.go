// Command testtimes reads `go test -json` on its standard input and writes
// what a person reads of a test run: each package's result line, the whole
// output of every test that fails (and of a package that fails outside its
// tests), then the ten longest tests, and last, so that the tail of a long
// log still says it, each failing test's own last messages (its file:line
// lines, a line each). make test runs its two Go lines through it. It exits 1 when the input says a test or package failed, or
// when the command it runs fails.
//
//	go test -json ./... | go run ./scripts/testtimes
//	go run ./scripts/testtimes go test -json ./...
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

type timing struct {
	pkg, test string
	secs      float64
}

func main() {
	if len(os.Args) < 2 {
		os.Exit(run(os.Stdin, os.Stdout, 10))
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stderr = os.Stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testtimes:", err)
		os.Exit(1)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testtimes:", err)
		os.Exit(1)
	}
	code := run(pipe, os.Stdout, 10)
	if err := cmd.Wait(); err != nil {
		fmt.Fprintln(os.Stderr, "testtimes:", strings.Join(os.Args[1:], " ")+":", err)
		code = 1
	}
	os.Exit(code)
}

func run(in io.Reader, out io.Writer, top int) int {
	outputs := map[string][]string{} // package + test -> its output lines
	var times []timing
	var why []string // each failing test's last messages, in the order they failed
	failed := false
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			// Not test2json (a build error printed as text): pass it on.
			fmt.Fprintln(out, sc.Text())
			continue
		}
		key := e.Package + " " + e.Test
		switch e.Action {
		case "output":
			outputs[key] = append(outputs[key], e.Output)
		case "pass", "skip":
			if e.Test == "" {
				fmt.Fprint(out, last(outputs[key]))
			} else if !strings.Contains(e.Test, "/") && e.Action == "pass" {
				times = append(times, timing{e.Package, e.Test, e.Elapsed})
			}
			delete(outputs, key)
		case "fail":
			failed = true
			if e.Test != "" {
				why = append(why, reasons(e.Package, e.Test, outputs[key])...)
			}
			fmt.Fprint(out, strings.Join(outputs[key], ""))
			delete(outputs, key)
		case "build-output":
			fmt.Fprint(out, e.Output)
		case "build-fail":
			failed = true
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(out, "testtimes:", err)
		return 1
	}
	if failed {
		// A test that never ended (the binary timed out or crashed): its
		// output is the evidence.
		keys := make([]string, 0, len(outputs))
		for k := range outputs {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprint(out, strings.Join(outputs[k], ""))
		}
	}
	sort.SliceStable(times, func(i, j int) bool { return times[i].secs > times[j].secs })
	if len(times) > top {
		times = times[:top]
	}
	if len(times) > 0 {
		fmt.Fprintf(out, "the %d longest tests:\n", len(times))
		for _, t := range times {
			fmt.Fprintf(out, "  %7.1f s  %s %s\n", t.secs, strings.TrimPrefix(t.pkg, "github.com/okey-game/okey/"), t.test)
		}
	}
	if len(why) > 0 {
		fmt.Fprintln(out, "why the failing tests failed (their last messages; the whole output is above):")
		for _, w := range why {
			fmt.Fprintln(out, w)
		}
	}
	if failed {
		return 1
	}
	return 0
}

// message is a test's own line (t.Error, t.Fatal, t.Log): its file and line
// at the test's indentation; a message's further lines are indented more.
var message = regexp.MustCompile(`^    (\s{4})*[\w.-]+\.go:\d+: `)

// reasons are the last few of a failing test's own lines, not its figures,
// screenshots and browser output (browsertest's, after the reason), each cut to one line of at most 300 bytes.
func reasons(pkg, test string, lines []string) []string {
	var got []string
	for _, l := range lines {
		l = strings.TrimRight(l, "\n")
		if !message.MatchString(l) || strings.Contains(l, ": figure: ") || strings.Contains(l, ": screenshot ") ||
			strings.Contains(l, ": chromium's output, its last ") {
			continue
		}
		l = strings.TrimSpace(l)
		if len(l) > 300 {
			n := 300
			for n > 0 && !utf8.RuneStart(l[n]) {
				n--
			}
			l = l[:n] + "..."
		}
		got = append(got, l)
	}
	if len(got) > maxReasons {
		got = got[len(got)-maxReasons:]
	}
	name := strings.TrimPrefix(pkg, "github.com/okey-game/okey/") + " " + test
	if len(got) == 0 {
		return []string{"  " + name + ": no message of its own (see its output above)"}
	}
	for i, l := range got {
		got[i] = "  " + name + ": " + l
	}
	return got
}

// maxReasons is how many of a failing test's last messages the summary
// repeats.
const maxReasons = 6

// last is a package's result line ("ok  pkg 1.2s"), the last of its output.
func last(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return lines[len(lines)-1]
}
