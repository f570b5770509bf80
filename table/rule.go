package table

import (
	"errors"
	"fmt"

	"github.com/okey-game/okey/crypto/blame"
	"github.com/okey-game/okey/crypto/commit"
	"github.com/okey-game/okey/crypto/deck"
	"github.com/okey-game/okey/engine"
)

// Rule is the name of a rule of the table protocol that a seat broke
// (protocol.md 5.5). The names are the protocol's: verify's JSON, the logs
// and the conformance suite's "rule" fields carry them as they are.
type Rule string

// The rules of protocol.md 5.5, in its order.
const (
	RuleOutOfTurn        Rule = "out-of-turn"
	RuleWrongMessage     Rule = "wrong-message"
	RuleReplay           Rule = "replay"
	RuleStateDivergence  Rule = "state-divergence"
	RuleEquivocation     Rule = "equivocation"
	RuleMalformedBody    Rule = "malformed-body"
	RuleBadProof         Rule = "bad-proof"
	RuleBadKeyShare      Rule = "bad-key-share"
	RuleBadShuffle       Rule = "bad-shuffle"
	RuleBadShuffleProof  Rule = "bad-shuffle-proof"
	RuleBadDice          Rule = "bad-dice"
	RuleCopiedCommitment Rule = "copied-commitment"
	RuleFalseWin         Rule = "false-win"
	RuleFalseJunk        Rule = "false-junk"
	RulePhantomTile      Rule = "phantom-tile"
	RuleRules            Rule = "rules" // another engine rule
	RuleAudit            Rule = "audit"
	// Okey 101's moves (protocol.md 5.8).
	RuleFalseOpening  Rule = "false-opening"
	RuleAddBeforeOpen Rule = "add-before-open"
	RuleKeptDiscard   Rule = "kept-discard"
	RuleBadMeld       Rule = "bad-meld"
	RuleBadSwap       Rule = "bad-swap"
	// The fallbacks: a fault the cryptography blames on the sender that no
	// name above covers, and a refusal that wraps no rule at all.
	RuleCrypto   Rule = "crypto"
	RuleProtocol Rule = "protocol"
)

// Rules lists every rule a Violation can name, in protocol.md 5.5's order.
var Rules = []Rule{
	RuleOutOfTurn, RuleWrongMessage, RuleReplay, RuleStateDivergence, RuleEquivocation,
	RuleMalformedBody, RuleBadProof, RuleBadKeyShare, RuleBadShuffle, RuleBadShuffleProof,
	RuleBadDice, RuleCopiedCommitment, RuleFalseWin, RuleFalseJunk, RulePhantomTile, RuleRules,
	RuleAudit, RuleFalseOpening, RuleAddBeforeOpen, RuleKeptDiscard, RuleBadMeld, RuleBadSwap,
	RuleCrypto, RuleProtocol,
}

// Violation is a rule broken by a signed message: the seat is to blame, the
// envelopes are the evidence.
type Violation struct {
	Seat     int
	Step     uint32
	Rule     Rule
	Err      error
	Evidence [][]byte
}

func (v *Violation) Error() string {
	return fmt.Sprintf("table: seat %d broke %s at step %d: %v", v.Seat, v.Rule, v.Step, v.Err)
}

func (v *Violation) Unwrap() error { return v.Err }

// violation blames env's sender for rule; env is the evidence.
func violation(env *Envelope, rule Rule, err error) *Violation {
	return &Violation{Seat: int(env.Seat), Step: env.Step, Rule: rule, Err: err, Evidence: [][]byte{env.Raw}}
}

// equivocation blames the seat that signed both first and second, two
// different messages for one step; both are the evidence.
func equivocation(first, second *Envelope) *Violation {
	return &Violation{Seat: int(second.Seat), Step: second.Step, Rule: RuleEquivocation,
		Err:      fmt.Errorf("seat %d signed two messages for step %d", second.Seat, second.Step),
		Evidence: [][]byte{first.Raw, second.Raw}}
}

// outOfTurn blames env's sender for speaking at a step where seat was to
// send a message of kind.
func outOfTurn(env *Envelope, seat int, kind Kind) *Violation {
	return violation(env, RuleOutOfTurn, fmt.Errorf("seat %d sent %v; seat %d must send %v", env.Seat, env.Kind, seat, kind))
}

// auditFault blames the seat the deck audit names (its revealed seed
// contradicts its own earlier messages) at the machine's step.
func auditFault(f *blame.Fault, step uint32, err error) *Violation {
	return &Violation{Seat: f.Seat, Step: step, Rule: RuleAudit, Err: err}
}

// asViolation blames the sender for err, a refusal of its message, under
// the rule err wraps (ruleOf), unless err already names a seat (a junk
// tile found by the audit, say).
func asViolation(env *Envelope, err error) *Violation {
	var vi *Violation
	if errors.As(err, &vi) {
		return vi
	}
	return violation(env, ruleOf(err), err)
}

// ruleOf names the rule a refusal of a message's body wraps (protocol.md
// 5.4, 5.8).
func ruleOf(err error) Rule {
	switch {
	case errors.Is(err, ErrMalformed), errors.Is(err, deck.ErrEncoding):
		return RuleMalformedBody
	case errors.Is(err, deck.ErrProof):
		return RuleBadProof
	case errors.Is(err, deck.ErrShuffleProof):
		return RuleBadShuffleProof
	case errors.Is(err, deck.ErrShare):
		return RuleBadKeyShare
	case errors.Is(err, deck.ErrDuplicate), errors.Is(err, deck.ErrIdentity):
		return RuleBadShuffle
	case errors.Is(err, commit.ErrMismatch):
		return RuleBadDice
	case errors.Is(err, commit.ErrCopied):
		return RuleCopiedCommitment
	case errors.Is(err, engine.ErrNotWinning):
		return RuleFalseWin
	case errors.Is(err, engine.ErrNotHeld):
		return RulePhantomTile
	case errors.Is(err, engine.ErrTurn), errors.Is(err, engine.ErrPhase):
		return RuleOutOfTurn
	case errors.Is(err, engine.ErrOpening):
		return RuleFalseOpening
	case errors.Is(err, engine.ErrNotOpened):
		return RuleAddBeforeOpen
	case errors.Is(err, engine.ErrMustUse):
		return RuleKeptDiscard
	case errors.Is(err, engine.ErrMeld):
		return RuleBadMeld
	case errors.Is(err, engine.ErrSwap):
		return RuleBadSwap
	}
	var f *blame.Fault
	if errors.As(err, &f) {
		return RuleCrypto
	}
	var ee interface{ Unwrap() error }
	if errors.As(err, &ee) {
		return RuleRules
	}
	return RuleProtocol
}
