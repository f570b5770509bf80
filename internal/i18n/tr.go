package i18n

// The Turkish catalogue's general part: English key -> Turkish text, with the
// same verbs (%d, %s, %[1]d...) in the same meaning. The game's own words:
// istaka (rack), gösterge (indicator), okey, sahte okey (false joker), per
// (meld), çift (pair), el açmak (to open), işlek (a discard the next player
// can use).
var _ = turkish(map[string]string{
	"okey": "okey",
})
