package invite

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
)

// A code as a person gives it: copied from a screen or a chat that wrapped
// it over lines, with spaces or line breaks in it. Every reader of such a
// code (the lobby's join-by-code box, --code, --code -) makes it whole with
// Compact, and only then parses it: Parse itself stays exact.

// MaxPasted bounds what Read reads: a code, wrapped, with room for
// white space around it.
const MaxPasted = 4 << 10

// ErrNoCode is Read's error when the input holds nothing but white space.
var ErrNoCode = errors.New("invite: no code in the input")

// Compact is s with every white space character dropped (spaces, tabs, line
// breaks, no-break spaces) and every invisible formatting one (a soft
// hyphen, a zero-width space or joiner, a byte order mark): the code a
// person pasted, as it was before it was wrapped.
func Compact(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, s)
}

// ParsePasted parses a code as a person pastes or types it: Parse of
// Compact(s).
func ParsePasted(s string) (Code, error) {
	return Parse(Compact(s))
}

// Read reads a code as a person pastes it from r (standard input): it
// keeps the characters that are not white space (Compact), and stops at
// the first line break or space after which they form a whole code, or at
// the end of the input, reading at most MaxPasted bytes. So a code wrapped
// over several lines reads whole, a terminal need not send an end of file
// once the code is in, and what follows a whole code is ignored. It
// returns the code's text (Parse accepts it); without a whole code, the
// error says why: ErrNoCode for an input of white space only, else
// Parse's error on what was read.
func Read(r io.Reader) (string, error) {
	if r == nil {
		return "", ErrNoCode
	}
	var (
		text []byte // what was read
		buf  [512]byte
	)
	for len(text) < MaxPasted {
		n, err := r.Read(buf[:min(len(buf), MaxPasted-len(text))])
		for _, b := range buf[:n] {
			// At a break after a character: are the characters so far a code?
			if asciiSpace(b) && len(text) > 0 && !asciiSpace(text[len(text)-1]) {
				if s := Compact(string(text)); len(s) <= MaxLen {
					if _, perr := Parse(s); perr == nil {
						return s, nil
					}
				}
			}
			text = append(text, b)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", fmt.Errorf("invite: reading the code: %w", err)
		}
	}
	s := Compact(string(text))
	switch {
	case s == "":
		return "", ErrNoCode
	case len(text) >= MaxPasted:
		if _, err := Parse(s); err == nil {
			return s, nil
		}
		return "", fmt.Errorf("%w: %d bytes without a whole code", ErrTooLong, len(text))
	}
	if _, err := Parse(s); err != nil {
		return "", err
	}
	return s, nil
}

// asciiSpace reports whether b is an ASCII white space byte: the breaks
// Read tries a code at.
func asciiSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f'
}
