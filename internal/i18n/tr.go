package i18n

// The Turkish catalogue's general part: English key -> Turkish text, with the
// same verbs (%d, %s, %[1]d...) in the same meaning. The game's own words:
// istaka (rack), gösterge (indicator), okey, sahte okey (false joker), per
// (meld), çift (pair), el açmak (to open), işlek (a discard the next player
// can use).
//
// Tiles keep their notation (R7, B13, FJ); colours in prose are Turkish.
// Other words used throughout: deste (stock), yan / atılan taşlar (discard
// pile), el (hand), seri (a set of one number), sıra (a run), bitirmek /
// elini açmak (to finish, to declare a win), ceza (penalty), maç (match).
var _ = turkish(map[string]string{
	"red":    "kırmızı",
	"yellow": "sarı",
	"blue":   "mavi",
	"black":  "siyah",
})
