package netplay

import (
	"context"
	"errors"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/p2p/lobby"
)

// netErrors are the errors of network play a player is told of in one
// sentence of their own, with what to do next where there is something
// to do, first match first.
var netErrors = []struct {
	err error
	key string
}{
	{invite.ErrTypo, i18n.Mark("the invite code's check does not match: a character is mistyped, missing or swapped; copy it again, whole")},
	{invite.ErrNotACode, i18n.Mark("that is not an okey invite code (it starts with okey1)")},
	{invite.ErrVersion, i18n.Mark("the invite code is of another okey version")},
	{invite.ErrTooLong, i18n.Mark("the invite code is too long")},
	{invite.ErrNoCode, i18n.Mark("standard input holds no code")},
	{lobby.ErrDenied, i18n.Mark("the invite code does not admit to this table: it was revoked or forged; ask its creator for the current code")},
	{lobby.ErrInviteOnly, i18n.Mark("this table admits by invite code only")},
	{lobby.ErrRateLimited, i18n.Mark("too many failed attempts to join: try again later")},
	{lobby.ErrTableFull, i18n.Mark("the table is full")},
	{lobby.ErrTableStarted, i18n.Mark("the table has started: its invite code admits no one any more")},
	{lobby.ErrTableClosed, i18n.Mark("the table is closed or its match is over")},
	{p2p.ErrUnreachable, i18n.Mark("the table's creator cannot be reached at any address of the code: check that its okey still runs, or play through a relay (--relay)")},
	{context.DeadlineExceeded, i18n.Mark("the table did not start in time")},
}

// Explain is an error of the network or of an invite code for a player,
// in the interface's language: one sentence, with what to do next where
// there is something to do (the error's details, dial errors, table ids
// and the packages' words, are for the log); false for an error that has
// no sentence of its own here.
func Explain(err error) (string, bool) {
	for _, e := range netErrors {
		if errors.Is(err, e.err) {
			return i18n.TKey(e.key), true
		}
	}
	return "", false
}
