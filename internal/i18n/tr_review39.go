package i18n

// The Turkish catalogue of the web table's refusals of a bad command
// (web/: the review of issue 39).
var _ = turkish(map[string]string{
	"the page sent a command okey cannot read":   "sayfa okey'in okuyamadığı bir komut gönderdi",
	"the page sent a command okey does not know": "sayfa okey'in bilmediği bir komut gönderdi",
	"the relay line is too long":                 "aktarıcı satırı çok uzun",
	"that place is not on the rack":              "o yer ıstakada değil",
})

// The web page's socket dropped while okey still serves it (issue 39).
var _ = turkish(map[string]string{
	"the connection to okey dropped: reconnecting…": "okey ile bağlantı koptu: yeniden bağlanılıyor…",
})
