package engine

import (
	"errors"
	"fmt"
)

// Error is an engine error with its parts kept apart, so that a front end
// chooses its own words without reading the text: Kind is the rule or
// check it breaks (a sentinel such as ErrMeld, which errors.Is finds), nil
// for a sentinel itself or an error of no kind; Detail is what about it.
// Its text is the one the engine always gave ("engine: not a valid meld:
// R1 B5 is neither a set nor a run"): transcripts, okey verify and the
// conformance suite carry it byte for byte.
type Error struct {
	Kind   error
	Detail string
}

// Error implements error: the kind's text, then the detail.
func (e *Error) Error() string {
	if e.Kind == nil {
		return "engine: " + e.Detail
	}
	return e.Kind.Error() + ": " + e.Detail
}

// Unwrap returns the kind, for errors.Is.
func (e *Error) Unwrap() error { return e.Kind }

// Message is the error's text without the package's "engine: " prefix,
// for a player's terminal ("not a valid meld: R1 B5 is neither a set nor a
// run").
func (e *Error) Message() string {
	if e.Kind == nil {
		return e.Detail
	}
	var k *Error
	if errors.As(e.Kind, &k) {
		return k.Message() + ": " + e.Detail
	}
	return e.Kind.Error() + ": " + e.Detail
}

// DetailOf returns the detail of the error of kind in err's chain ("R1 B5
// is neither a set nor a run" of an ErrMeld), and false when there is none.
func DetailOf(err, kind error) (string, bool) {
	for err != nil {
		if e, ok := err.(*Error); ok && e.Kind == kind { //nolint:errorlint // walking the chain by hand
			return e.Detail, true
		}
		err = errors.Unwrap(err)
	}
	return "", false
}

// sentinel is an engine error of no kind: one a caller matches with
// errors.Is.
func sentinel(text string) error { return &Error{Detail: text} }

// errorf is an error of kind (nil: none) with the detail formatted.
func errorf(kind error, format string, args ...any) error {
	return &Error{Kind: kind, Detail: fmt.Sprintf(format, args...)}
}
