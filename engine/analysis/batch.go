package analysis

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// Batch runs one analysis per "INDICATOR: TILES" line of in (or "TILES"
// with a default indicator) and writes one JSON object a line to out: the
// result, or {"line": N, "error": text(err)}. Blank lines and # comments
// are skipped. Every answer is written before the next read of in that
// may wait, so a program that writes a line and waits for its answer gets
// it. It returns the error that stopped it: writing (output lost) as
// writeErr, reading the input as readErr.
func Batch(defaultIndicator string, in io.Reader, out io.Writer, text func(error) string,
	analyze func(ind string, tiles []string) (any, error)) (readErr, writeErr error) {
	w := bufio.NewWriter(out)
	fb := &flushBefore{in: in, out: w}
	sc := bufio.NewScanner(fb)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for lineNo := 1; sc.Scan(); lineNo++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ind, tiles, found := strings.Cut(line, ":")
		if !found {
			ind, tiles = defaultIndicator, line
		}
		var b []byte
		var err error
		if !found && defaultIndicator == "" {
			err = errors.New(`want "INDICATOR: TILES", no colon in line`)
		} else {
			var res any
			if res, err = analyze(strings.TrimSpace(ind), strings.Fields(tiles)); err == nil {
				b, err = json.Marshal(res)
			}
		}
		if err != nil {
			b, _ = json.Marshal(struct {
				Line  int    `json:"line"`
				Error string `json:"error"`
			}{lineNo, text(err)})
		}
		w.Write(b)
		w.WriteByte('\n')
	}
	if fb.err != nil {
		return nil, fb.err
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return sc.Err(), nil
}

// flushBefore reads from in and flushes out before each read: the answers to
// the lines read so far go out before the batch waits for more input, while
// input that is already there (a file) is still answered in large writes.
type flushBefore struct {
	in  io.Reader
	out *bufio.Writer
	err error // the flush that failed: output lost, the batch stops
}

func (f *flushBefore) Read(p []byte) (int, error) {
	if err := f.out.Flush(); err != nil {
		f.err = err
		return 0, err
	}
	return f.in.Read(p)
}
