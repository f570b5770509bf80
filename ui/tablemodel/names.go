package tablemodel

import (
	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
)

// HintReason is a hint's reason: the expert's own sentence in English; in
// another language one written from the choice (its move, tile, distance
// and the live tiles that help).
func HintReason(c bot.Choice) string {
	if i18n.Current() == i18n.English {
		return c.Reason
	}
	switch c.Kind {
	case engine.ActDiscard:
		if c.Dist == 0 {
			return i18n.T("discard %s and keep a winning hand", c.Face)
		}
		r := i18n.T("discard %s: %d from a win", c.Face, c.Dist)
		if c.Outs > 0 {
			r = i18n.T("discard %s: %d from a win, %d live tiles help", c.Face, c.Dist, c.Outs)
		}
		if c.Danger > 0.3 { // the expert's own threshold for saying so
			r += i18n.T("; the next player may want it")
		}
		return r
	case engine.ActTake:
		return i18n.T("take %s: %d from a win after it", c.Face, c.Dist)
	case engine.ActDraw:
		return i18n.T("draw from the stock: %d from a win, %d live tiles help", c.Dist, c.Outs)
	case engine.ActWin:
		if c.Face == engine.NoFace {
			return i18n.T("you can win: declare your seven pairs")
		}
		return i18n.T("you can win: finish with the %s and declare", c.Face)
	case engine.ActShow:
		return i18n.T("show %s: it matches the face-up tile (gösterme)", c.Face)
	case engine.ActExhaust:
		return i18n.T("the stock is empty: end the hand")
	}
	return c.Reason
}

// RuleName is a protocol rule's name (protocol.md 5.5) for a person: in
// English the name itself, in Turkish a few words saying what was broken.
// Every rule of table.Rules has a name here (a test checks it).
func RuleName(rule table.Rule) string {
	if i18n.Current() == i18n.English {
		return string(rule)
	}
	if k, ok := ruleNames[rule]; ok {
		return i18n.TKey(k)
	}
	return string(rule)
}

// ruleNames are the keys of the rules' names (the rule's name and a few
// words), translated where they are shown.
var ruleNames = map[table.Rule]string{
	table.RuleOutOfTurn:        i18n.Mark("out-of-turn (spoke out of turn)"),
	table.RuleWrongMessage:     i18n.Mark("wrong-message (a message of the wrong kind)"),
	table.RuleReplay:           i18n.Mark("replay (a message replayed from elsewhere)"),
	table.RuleStateDivergence:  i18n.Mark("state-divergence (a state the rules do not give)"),
	table.RuleEquivocation:     i18n.Mark("equivocation (two different messages for one step)"),
	table.RuleMalformedBody:    i18n.Mark("malformed-body (a message that does not decode)"),
	table.RuleBadProof:         i18n.Mark("bad-proof (a proof that does not hold)"),
	table.RuleBadKeyShare:      i18n.Mark("bad-key-share (a wrong key for a tile)"),
	table.RuleBadShuffle:       i18n.Mark("bad-shuffle (a shuffle that is not a permutation)"),
	table.RuleBadShuffleProof:  i18n.Mark("bad-shuffle-proof (a shuffle proof that does not hold)"),
	table.RuleBadDice:          i18n.Mark("bad-dice (a dice roll that does not match its commitment)"),
	table.RuleCopiedCommitment: i18n.Mark("copied-commitment (another seat's commitment copied)"),
	table.RuleFalseWin:         i18n.Mark("false-win (declared a win that is not one)"),
	table.RuleFalseJunk:        i18n.Mark("false-junk (called a good tile junk)"),
	table.RulePhantomTile:      i18n.Mark("phantom-tile (played a tile it does not hold)"),
	table.RuleRules:            i18n.Mark("rules (a move the rules forbid)"),
	table.RuleAudit:            i18n.Mark("audit (its revealed keys contradict its messages)"),
	table.RuleFalseOpening:     i18n.Mark("false-opening (opened with less than 101 points or five doubles)"),
	table.RuleAddBeforeOpen:    i18n.Mark("add-before-open (added to a meld before opening)"),
	table.RuleKeptDiscard:      i18n.Mark("kept-discard (kept the discard it took unused)"),
	table.RuleBadMeld:          i18n.Mark("bad-meld (laid or extended a meld that is not one)"),
	table.RuleBadSwap:          i18n.Mark("bad-swap (took an okey off the table wrongly)"),
	table.RuleCrypto:           i18n.Mark("crypto (a cryptographic check failed on its message)"),
	table.RuleProtocol:         i18n.Mark("protocol (a message the protocol refuses)"),
}

// KindNameOf is KindName for a kind written as the protocol names it
// ("move"), as verify's JSON does.
func KindNameOf(name string) string {
	for k := table.KindHello; k <= table.KindJunk; k++ {
		if k.String() == name {
			return KindName(k)
		}
	}
	return name
}

// KindName is a protocol message's kind for a person ("move", "hamle").
func KindName(k table.Kind) string {
	if i18n.Current() == i18n.English {
		return k.String()
	}
	switch k {
	case table.KindHello:
		return i18n.T("hello")
	case table.KindShuffle:
		return i18n.T("shuffle")
	case table.KindRekey:
		return i18n.T("rekey")
	case table.KindOpen:
		return i18n.T("open a tile")
	case table.KindDeal:
		return i18n.T("deal")
	case table.KindMove:
		return i18n.T("a move")
	case table.KindShare:
		return i18n.T("share")
	case table.KindAudit:
		return i18n.T("audit")
	case table.KindJunk:
		return i18n.T("junk claim")
	}
	return k.String()
}
