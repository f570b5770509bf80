package i18n

// The Turkish catalogue of issue 37's items: matches against bots with
// lasting identities, the tournament's dead table, the lobby's host keys
// and help, and the LAN end panel's q.
var _ = turkish(map[string]string{
	"okey: the identities of the match against bots: %s\n": "okey: botlara karşı maçın kimlikleri: %s\n",
	"the identity in %s is gone: that match cannot go on":  "%s içindeki kimlik yok: o maç sürdürülemez",
})
