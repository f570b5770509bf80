package i18n

// The Turkish catalogue of the LAN party (issue 26): okey bot's summary, the
// lobby's list of many tables.
var _ = turkish(map[string]string{
	"write a JSON summary of the matches and the process's cost to this file on exit": "çıkarken maçların ve sürecin maliyetinin JSON özetini bu dosyaya yaz",
	"okey: bot: --summary: %s\n": "okey: bot: --summary: %s\n",
})

var _ = turkish(map[string]string{
	"%d more tables: up/down scrolls": "%d masa daha: yukarı/aşağı kaydırır",
	"hand %d, scores %s":              "el %d, puanlar %s",
	"invite code only":                "yalnız davet koduyla",
	"%d+ watching":                    "%d+ izleyici",
})

var _ = englishPlural(map[string]string{
	"%d more tables: up/down scrolls": "1 more table: up/down scrolls",
})
