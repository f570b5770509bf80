// Package blame defines the error type that the okey mental-poker packages
// return when a verification fails because of what one seat sent.
//
// Callers branch on the rule with errors.Is (each package exports sentinel
// errors) and on the seat with errors.As:
//
//	var f *blame.Fault
//	if errors.As(err, &f) {
//		abort(f.Seat, err)
//	}
package blame

import (
	"errors"
	"fmt"
)

// Fault is an error caused by the seat Seat: a message from that seat broke
// the rule Err (a sentinel error of the package that found it).
//
// Pos is the deck position or item index the failure concerns, or -1 when
// the failure is not about one position.
type Fault struct {
	Seat int
	Pos  int
	Err  error
}

// New returns a Fault blaming seat for err, not tied to a position.
func New(seat int, err error) *Fault { return &Fault{Seat: seat, Pos: -1, Err: err} }

// At returns a Fault blaming seat for err at position pos.
func At(seat, pos int, err error) *Fault { return &Fault{Seat: seat, Pos: pos, Err: err} }

func (f *Fault) Error() string {
	if f.Pos >= 0 {
		return fmt.Sprintf("%v (seat %d, position %d)", f.Err, f.Seat, f.Pos)
	}
	return fmt.Sprintf("%v (seat %d)", f.Err, f.Seat)
}

// Unwrap returns the rule that was broken.
func (f *Fault) Unwrap() error { return f.Err }

// Seat reports the seat that err blames, if err is or wraps a *Fault.
func Seat(err error) (int, bool) {
	var f *Fault
	if errors.As(err, &f) {
		return f.Seat, true
	}
	return 0, false
}
