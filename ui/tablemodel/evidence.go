package tablemodel

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
)

// evidenceErrs are the library's errors that a verdict's evidence names,
// said of the seat named (not of the reader, as Explain says them).
var evidenceErrs = []struct {
	err error
	key string
}{
	{engine.ErrNotHeld, i18n.Mark("the tile is not in that player's rack")},
	{engine.ErrTurn, i18n.Mark("it was not that player's turn")},
	{engine.ErrMustDraw, i18n.Mark("that player had to draw or take the discard first")},
	{engine.ErrDrawn, i18n.Mark("that player had drawn already this turn")},
	{engine.ErrEmptyStock, i18n.Mark("the stock was empty")},
	{engine.ErrStockLeft, i18n.Mark("the stock was not empty")},
	{engine.ErrNoDiscard, i18n.Mark("there was no discard to take")},
	{engine.ErrFace, i18n.Mark("a revealed face contradicts the tiles")},
	{engine.ErrShow, i18n.Mark("gösterme was not allowed then")},
	{engine.ErrNotWinning, i18n.Mark("the hand declared is not a winning hand")},
	{engine.ErrBadAction, i18n.Mark("a malformed move")},
	{engine.ErrPhase, i18n.Mark("a move not allowed at that point of the hand")},
	{engine.ErrNotOpened, i18n.Mark("that player had not opened")},
	{engine.ErrOpening, i18n.Mark("an opening needs 101 points in melds or five doubles")},
	{engine.ErrMustUse, i18n.Mark("the discard taken had to be used that turn")},
	{engine.ErrKeepTile, i18n.Mark("a turn ends with a discard: a tile had to stay in the rack")},
	{engine.ErrSwap, i18n.Mark("that okey could not be taken")},
	{engine.ErrMeld, i18n.Mark("not a valid meld")},
	{engine.ErrBadTile, i18n.Mark("not a tile")},
	{engine.ErrTooManyCopies, i18n.Mark("more than two copies of a tile")},
	{table.ErrMalformed, i18n.Mark("a damaged message")},
	{table.ErrSignature, i18n.Mark("a signature does not verify (damaged, forged, or from another match)")},
	{table.ErrWrongTable, i18n.Mark("a message of another table or hand")},
	{table.ErrNotNext, i18n.Mark("a message out of its place in the chain")},
	{table.ErrFork, i18n.Mark("a message built on another chain")},
}

var seatSlotRE = regexp.MustCompile(`\b(seat|slot) (\d+)\b`)

// Evidence is the evidence of a verdict (the error a violation carries) for
// a person: in English as Plain writes it; in another language the known
// error said of the seat named, with the table's detail after it (its seat
// and slot numbers in the interface's words). --json output keeps Plain.
func Evidence(err error) string {
	plain := Plain(err)
	if err == nil || i18n.Current() == i18n.English {
		return plain
	}
	for _, e := range evidenceErrs {
		if !errors.Is(err, e.err) {
			continue
		}
		text := i18n.TKey(e.key)
		_, detail, ok := strings.Cut(plain, Plain(e.err))
		if detail = strings.TrimPrefix(detail, ": "); ok && detail != "" {
			detail = seatSlotRE.ReplaceAllStringFunc(detail, func(m string) string {
				word, num, _ := strings.Cut(m, " ")
				n, _ := strconv.Atoi(num)
				if word == "seat" {
					return i18n.T("seat %d", n)
				}
				return i18n.T("slot %d", n)
			})
			text += " (" + detail + ")"
		}
		return text
	}
	return plain
}
