package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// streamDeadline bounds each wait for an answer: far more than an analysis
// takes, so that only an answer held back fails.
const streamDeadline = 20 * time.Second

// TestAnalyzeBatchAnswersEachLine: in batch mode okey analyze answers each
// line as it reads it. The test writes one line into a pipe, waits (with a
// deadline) for its answer, and only then writes the next; stdin stays open
// until the end, so an answer held back until the end of the input fails.
func TestAnalyzeBatchAnswersEachLine(t *testing.T) {
	for _, c := range []struct {
		name  string
		args  []string
		lines []string
		want  []string // a substring of each answer
	}{
		{"classic", []string{"analyze"}, []string{
			"R4: K4 K4 K2 K2 K9 K9 B5 B5 K13 K13 K7 K7 B4 R5",
			"# a comment: no answer",
			"R4: R0",
			"R4: R1 R2 R3 Y7 B7 K7 K9 K10 K11 K12 B1 B2 B3 R5",
		}, []string{`"winning":true`, `"error"`, `"winning":true`}},
		{"101", []string{"analyze", "--preset", "101", "--taken", "FJ"}, []string{
			"R4: R4 R6 FJ K9 K10 K11",
			"R4: K5 B5 FJ R10 R11 R12",
			"",
			"Y1: R0",
		}, []string{`"value":45`, `"value":48`, `"error"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			var errb bytes.Buffer
			done := make(chan int, 1)
			go func() {
				code := run(c.args, inR, outW, &errb)
				outW.Close()
				done <- code
			}()
			answers := make(chan string, 16) // never blocks the reader once the test is over
			go func() {
				sc := bufio.NewScanner(outR)
				for sc.Scan() {
					answers <- sc.Text()
				}
				close(answers)
			}()
			defer func() {
				inW.CloseWithError(errors.New("test over"))
				outR.Close()
			}()
			k := 0
			for _, line := range c.lines {
				if _, err := io.WriteString(inW, line+"\n"); err != nil {
					t.Fatalf("writing %q: %v", line, err)
				}
				if line == "" || strings.HasPrefix(line, "#") {
					continue
				}
				select {
				case got, ok := <-answers:
					if !ok {
						t.Fatalf("after %q: the output ended", line)
					}
					if !strings.Contains(got, c.want[k]) {
						t.Fatalf("answer to %q: %s, want %s in it", line, got, c.want[k])
					}
					k++
				case <-time.After(streamDeadline):
					t.Fatalf("no answer to %q within %v while stdin stays open", line, streamDeadline)
				}
			}
			inW.Close()
			select {
			case code := <-done:
				if code != 0 || errb.Len() > 0 {
					t.Fatalf("exit %d, stderr %q", code, errb.String())
				}
			case <-time.After(streamDeadline):
				t.Fatal("okey analyze did not end at the end of its input")
			}
			if extra, ok := <-answers; ok {
				t.Fatalf("an answer more: %s", extra)
			}
		})
	}
}

// TestAnalyzeBatchWriteError: output that cannot be written stops the batch
// with exit 2 and a message, never silently.
func TestAnalyzeBatchWriteError(t *testing.T) {
	var errb bytes.Buffer
	in := strings.NewReader(strings.Repeat("R4: R4 R6 FJ K9 K10 K11\n", 3))
	code := run([]string{"analyze", "--preset", "101"}, in, failWriter{}, &errb)
	if code != 2 || !strings.HasPrefix(errb.String(), "okey: analyze: ") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }
