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
	// Bot levels (9).
	"learned":       "öğrenen",
	"(the default)": "(varsayılan)",
	"Bot levels (--level), weakest first: the strategy each plays and the share of\nhands one seat of it won against three greedy seats (95%% interval), measured\nonce, at arena's defaults (classic, seed 1), with\n  %s\nAt Okey 101 every level plays b101.\n": "Bot seviyeleri (--level), en zayıftan: her birinin oynadığı strateji ve bir\noyuncusunun üç greedy oyuncuya karşı kazandığı ellerin payı (%%95 aralık),\nbir kez, arena'nın varsayılanlarıyla (classic, tohum 1) şununla ölçüldü:\n  %s\nOkey 101'de her seviye b101 oynar.\n",
	"how well the bot plays: %s (default %s)": "botun ne kadar iyi oynadığı: %s (varsayılan %s)",
	"move strategy by name: %s, instead of --level (Okey 101: %s only, which greedy and every level mean there)": "adıyla hamle stratejisi: %s, --level yerine (Okey 101: yalnız %s; orada greedy ve her seviye onu demektir)",
	"how well this command's bot seats play: %s (instead of --strategy; every level plays b101 at Okey 101)":     "bu komutun bot oyuncularının ne kadar iyi oynadığı: %s (--strategy yerine; Okey 101'de her seviye b101 oynar)",
	// Bots' pace (7).
	"time per move, always (0s: never wait); without it %v per move while the table has spectators": "hamle başına süre, her zaman (0s: hiç bekleme); verilmezse masada izleyici varken hamle başına %v",
	"--pace must be 0s or more": "--pace en az 0s olmalı",
	// okey watch (8).
	"okey: watch: watching table %s (%s: %s); okey watch TABLE picks another\n": "okey: watch: %s masası izleniyor (%s: %s); başkasını okey watch MASA seçer\n",
	// A tournament's table and its end in the lobby; a 101 table's row (14).
	"you played": "oynadın",
	"%s has ended: its standings are in the list": "%s bitti: puan durumu listede",
	"round %d, scores %s":                         "el %d, puanlar %s",
	"tournament round %d, table %d":               "turnuva %d. tur, %d. masa",
})
