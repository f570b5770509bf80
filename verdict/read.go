// Package verdict is what okey verify says of a transcript file: the reading
// of its bytes (with messages for a person: "is a directory", "not an okey
// transcript", "cut short inside its last record"), the verdict of
// table.Verify, and its text in the interface's language. It builds for
// js/wasm: the page that okey verify --html writes runs this same code, so
// a browser says of a file exactly what okey verify says.
package verdict

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui/tablemodel"
)

// Magic opens every transcript file (protocol.md 6).
const Magic = "okey-transcript/v1\n"

// MaxFile bounds what okey reads into memory: 2^20 records of at
// most table.MaxEnvelope bytes would be far more than any match.
const MaxFile = 1 << 30

// Read reads the transcript at path for verify and replay, with
// messages for a player rather than a library: "is a directory", "not an okey
// transcript", "damaged at byte N". A file cut short inside its last record
// (a crash while writing) is read up to its last whole record, and cut says
// so: verify then finds it unfinished and honest so far, naming no one.
func Read(path string) (t *table.Transcript, cut bool, err error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, UserErr(i18n.Mark("no such file"))
	case err != nil:
		return nil, false, UserErr(i18n.Mark("cannot be read: %s"), tablemodel.Plain(errors.Unwrap(err)))
	case fi.IsDir():
		return nil, false, UserErr(i18n.Mark("is a directory, not a transcript"))
	case fi.Size() > MaxFile:
		return nil, false, UserErr(i18n.Mark("not an okey transcript (%d bytes, more than any match)"), fi.Size())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false, UserErr(i18n.Mark("cannot be read: %s"), tablemodel.Plain(errors.Unwrap(err)))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	if err != nil {
		return nil, false, UserErr(i18n.Mark("cannot be read: %s"), tablemodel.Plain(errors.Unwrap(err)))
	}
	return Parse(data)
}

// UserError is an error for a person (a transcript that cannot be read, a
// bad hand): English in --json and batch output, in the
// interface's language for a person (LocalErr).
type UserError struct {
	key  string
	args []any
}

// UserErr is an error for a person: key is an i18n.Mark'ed format.
func UserErr(key string, args ...any) error { return &UserError{key, args} }

func (e *UserError) Error() string { return fmt.Sprintf(e.key, e.args...) }

// LocalErr is an error for a person, in the interface's language.
func LocalErr(err error) string {
	var re *UserError
	if errors.As(err, &re) {
		return i18n.TKeyArgs(re.key, re.args)
	}
	return tablemodel.Explain(err)
}

// Parse reads a transcript file's bytes: a last record cut short
// is dropped and reported (cut), any other damage is an error for players.
func Parse(data []byte) (*table.Transcript, bool, error) {
	if !bytes.HasPrefix(data, []byte(Magic)) {
		return nil, false, UserErr(i18n.Mark("not an okey transcript"))
	}
	t, err := table.ReadTranscript(bytes.NewReader(data))
	if err != nil {
		return nil, false, errors.New(tablemodel.Plain(err))
	}
	return t, t.Torn, nil
}
