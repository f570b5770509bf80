package i18n

// The Turkish catalogue of issue 24's table-screen polish (points 5-21).
var _ = turkish(map[string]string{
	// 5: a penalty discard asks first
	"discard the okey? it costs a 101-point penalty":                   "okeyi atmak mı? 101 ceza yazılır",
	"discard the %s? it fits a meld on the table: a 101-point penalty": "%s atılsın mı? masadaki bir pere işler: 101 ceza yazılır",

	// 12: the label over a seat's last discard (a noun; "discard" is the key's order)
	"last discard": "son attığı",

	// 6: the 101 hint before the draw
	"take the previous discard %s (t): you can use it this turn": "önceki oyuncunun attığı %s taşını al (t): bu hamlede kullanabilirsin",
	"the bank is empty: d ends the round":                        "deste bitti: d eli bitirir",
	"draw from the bank (d)":                                     "desteden çek (d)",

	// 20: whose win a row of the hand's score table is about
	"%s won":      "%s bitirdi",
	"won":         "bitirdi",
	"partner won": "ortağı bitirdi",

	// 18: one meld, one bot (Turkish counts have one form)
	"selected: 1 double":                            "seçili: 1 çift",
	"selected: 1 meld, %d points":                   "seçili: 1 per, %d puan",
	"you lay 1 meld (%d points)":                    "1 per açtın (%d puan)",
	"you lay 1 double":                              "1 çift açtın",
	"you can lay 1 more meld (selected): l lays it": "1 per daha açabilirsin (seçili): l açar",
	"start a new match vs 1 bot (%s)":               "1 bota karşı yeni maç başlat (%s)",

	// 17: sort pairs
	"pairs": "çift diz",
	"sort the rack: s sets, r runs, p pairs (for seven pairs)": "s sayıya diz, r seriye diz, p çift diz (yedi çift için)",
	"sorted by pairs": "çiftler dizildi",

	// 13: the colour letters on the rack (Turkish only)
	"R red · Y yellow · B blue · K black": "R kırmızı · Y sarı · B mavi · K siyah",
	"R red · K black":                     "R kırmızı · K siyah",
})
