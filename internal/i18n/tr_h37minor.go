package i18n

// The Turkish catalogue of issue 37's minor items (5-10, 12-15): okey
// tournament's --name, the bot levels, the pace of bots, okey watch's
// tables, and words that read right.
var _ = turkish(map[string]string{
	"deprecated: --name": "kullanımdan kalktı: --name",
	"okey: tournament: --player is deprecated: use --name, as okey play and okey bot do\n": "okey: tournament: --player kullanımdan kalktı: okey play ve okey bot gibi --name kullan\n",
	"--title: %v": "--title: %v",
})
