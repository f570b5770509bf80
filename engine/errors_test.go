package engine

import (
	"errors"
	"testing"
)

// TestErrorText: the typed errors read as the engine's errors always read
// (transcripts and verify output carry them), match their kind with
// errors.Is, and give their detail and a prefix-free message apart.
func TestErrorText(t *testing.T) {
	m := errorf(ErrMeld, "%s is neither a set nor a run", "R1 B5")
	if got := m.Error(); got != "engine: not a valid meld: R1 B5 is neither a set nor a run" {
		t.Errorf("text %q", got)
	}
	if !errors.Is(m, ErrMeld) || errors.Is(m, ErrPhase) {
		t.Errorf("errors.Is of a meld error")
	}
	if d, ok := DetailOf(m, ErrMeld); !ok || d != "R1 B5 is neither a set nor a run" {
		t.Errorf("detail %q %v", d, ok)
	}
	if _, ok := DetailOf(m, ErrPhase); ok {
		t.Errorf("a meld error has a phase detail")
	}
	var e *Error
	if !errors.As(m, &e) || e.Message() != "not a valid meld: R1 B5 is neither a set nor a run" {
		t.Errorf("message of %v", m)
	}
	if got := ErrDealerFirst.Error(); got != "engine: not allowed in this phase: the dealer starts by discarding" {
		t.Errorf("dealer text %q", got)
	}
	if !errors.Is(ErrDealerFirst, ErrPhase) {
		t.Errorf("the dealer's error is no ErrPhase")
	}
	if got := errorf(nil, "unknown preset %q", "x").Error(); got != `engine: unknown preset "x"` {
		t.Errorf("text %q", got)
	}
	if _, err := ParseFace("Q9"); err == nil || !errors.As(err, &e) || e.Message() == err.Error() {
		t.Errorf("a bad tile's error %v has no message of its own", err)
	}
}
