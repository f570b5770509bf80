package i18n

// The Turkish catalogue of issue 37's minor items (5-10, 12-15): okey
// tournament's --name, the bot levels, the pace of bots, okey watch's
// tables, and words that read right.
var _ = turkish(map[string]string{
	"deprecated: --name": "kullanımdan kalktı: --name",
	"okey: tournament: --player is deprecated: use --name, as okey play and okey bot do\n": "okey: tournament: --player kullanımdan kalktı: okey play ve okey bot gibi --name kullan\n",
	"--title: %v": "--title: %v",
	// Words that read right (12).
	"sort the rack: s sets, r runs, p pairs (for five doubles)": "s sayıya diz, r seriye diz, p çift diz (beş çift için)",
	"%.1f → %.1f":   "%.1f → %.1f",
	"%s points":     "%s puan",
	"%s rounds":     "%s el",
	"%s s a move":   "hamle başına %s sn",
	"partnerships":  "eşli",
	"a simple deal": "basit dağıtım",
	// A tournament's table and its end in the lobby; a 101 table's row (14).
	"you played": "oynadın",
	"%s has ended: its standings are in the list": "%s bitti: puan durumu listede",
	"round %d, scores %s":                         "el %d, puanlar %s",
	"tournament round %d, table %d":               "turnuva %d. tur, %d. masa",
})
