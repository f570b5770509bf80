package i18n

// The Turkish catalogue's general part: English key -> Turkish text, with the
// same verbs (%d, %s, %[1]d...) in the same meaning. The words are the ones
// Turkish players use, the same everywhere: istaka (rack), gösterge
// (indicator), okey, sahte okey (false joker), per (meld), seri (a run, a
// sıralı per), aynı sayılı per (a set), çift (pair; a double of 101), deste
// (the stock; 101's bank too), yan / atılan taşlar (discard pile), işlek (a
// discard the next player can use; in 101 one that fits a meld on the
// table), el (hand; a round of 101), bitirmek (to finish, to win a hand),
// ceza (penalty), maç (match). El açmak (to open) and çifte gitmek (to open
// with doubles) are 101's only: a classic hand is finished, never opened.
//
// One register: the player is "sen" everywhere (the table, the dialogs, the
// commands' help), never "siz". Tiles keep their notation (R7, B13, FJ);
// colours in prose are Turkish; command names (okey replay), flags and
// ruleset options stay as typed.
var _ = turkish(map[string]string{
	"red":    "kırmızı",
	"yellow": "sarı",
	"blue":   "mavi",
	"black":  "siyah",
})
