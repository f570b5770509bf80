package i18n

// The Turkish catalogue of issue 37's items: matches against bots with
// lasting identities, the tournament's dead table, the lobby's host keys
// and help, and the LAN end panel's q.
var _ = turkish(map[string]string{
	"okey: the identities of the match against bots: %s\n": "okey: botlara karşı maçın kimlikleri: %s\n",
	"the identity in %s is gone: that match cannot go on":  "%s içindeki kimlik yok: o maç sürdürülemez",
	// The lobby: the host closes a table, one table at a time, the help.
	"%s closed the table %s: you no longer sit at it":                                           "%s, %s masasını kapattı: artık o masada oturmuyorsun",
	"the table %s is gone from the LAN (its creator left): you no longer sit at it":             "%s masası yerel ağdan kalktı (kuran ayrıldı): artık o masada oturmuyorsun",
	"you sit at the table %s: one table at a time (l leaves it, or closes your own)":            "%s masasında oturuyorsun: bir seferde bir masa (l masadan kalkar, kendi masanı kapatır)",
	"l again closes your table %s: those seated with you (%d) are told; any other key keeps it": "l bir daha: %s masan kapanır, seninle oturanlara (%d) söylenir; başka bir tuş masayı tutar",
	"closing %s": "%s kapatılıyor",
	"up/down":    "yukarı/aşağı",
	"choose a match, a tournament or a table": "bir maç, turnuva ya da masa seç",
	"enter, j":                                 "enter, j",
	"join the table, or resume the match":      "masaya katıl ya da maça devam et",
	"open a table (one at a time)":             "masa aç (bir seferde bir masa)",
	"open a tournament":                        "turnuva aç",
	"join a table by its invite code":          "davet koduyla bir masaya katıl",
	"a new invite code for your private table": "özel masana yeni bir davet kodu",
	"ready (again: not ready)":                 "hazır (bir daha: hazır değil)",
	"leave your table; your own: close it":     "masadan kalk; kendi masanı kapat",
	"leave your table":                         "masadan kalk",
	"watch the selected started table":         "seçili, başlamış masayı izle",
	"drop the selected unfinished match":       "seçili yarım maçı listeden çıkar",
	"quit okey":                                "okey'den çık",
	"the lobby's keys":                         "lobinin tuşları",
	"any key closes this help":                 "herhangi bir tuş bu yardımı kapatır",
	// The end panel of a match the lobby started goes back to it.
	"back to the lobby":                               "lobiye dön",
	"q: back to the lobby (q there quits okey)":       "q: lobiye dön (orada q okey'den çıkar)",
	"back in the lobby after the match: q quits okey": "maçtan sonra lobidesin: q okey'den çıkar",
	// A tournament table that ended without the player.
	"%d min": "%d dk",
	"round %d, table %d ended unfinished: you stay in for the next draw": "%d. tur, %d. masa yarım kaldı: sonraki kuraya katılıyorsun",
})
