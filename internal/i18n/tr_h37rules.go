package i18n

// The Turkish catalogue of a refused ruleset text or seat count (issue 37,
// item 11): ui.rulesetRefusal says engine.RulesetError with these keys,
// the engine's English sentences.
var _ = turkish(map[string]string{
	"unknown preset %q (have %s)":                                "bilinmeyen oyun %q (olanlar: %s)",
	"unknown option %q for %s: did you mean %s?":                 "bilinmeyen seçenek %q (oyun %s): %s mi demek istedin?",
	"unknown option %q for %s (its options: %s)":                 "bilinmeyen seçenek %q (oyun %s; seçenekleri: %s)",
	"option %q does not apply to preset %s (an option of %s)":    "%q seçeneği %s oyununda yok (şu oyunların seçeneği: %s)",
	"option %q takes no value: write %s":                         "%q seçeneği değer almaz: %s yaz",
	"option %q: want %s":                                         "%q seçeneği: %s olmalı",
	" or ":                                                       " ya da ",
	" (seconds)":                                                 " (saniye)",
	"option %q given twice":                                      "%q seçeneği iki kez verildi",
	"options %s and %s do not go together: %s":                   "%s ve %s seçenekleri birlikte verilemez: %s",
	"%s is for %d to %d players, not %d":                         "%s %d ile %d oyuncu içindir, %d değil",
	"partnerships need 4 players, not %d":                        "partnerships 4 oyuncu ister, %d değil",
	"%s needs 4 players, not %d":                                 "%s 4 oyuncu ister, %d değil",
	"stalemate-show scores a gösterme, and no-gosterme has none": "stalemate-show göstermeyi sayar, no-gosterme'de gösterme yok",
	"strokes count up from 0: no account reaches 0":              "strokes 0'dan yukarı sayar: hiçbir hesap 0'a inmez",
	"they contradict each other":                                 "birbirleriyle çelişirler",
	"strokes score no points to lose":                            "strokes'ta kaybedilecek puan yok",
	"strokes count from 0, not from points":                      "strokes puandan değil, 0'dan sayar",
	"no-cancel cancels no round":                                 "no-cancel hiçbir eli iptal etmez",
	"without swaps no discard could replace an okey":             "okey değiştirilemezse hiçbir atılan taş okeyin yerini alamaz",
})
