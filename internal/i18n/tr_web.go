package i18n

// The Turkish catalogue of the web table (web/) and of okey play --web.
var _ = turkish(map[string]string{
	"okey table":    "okey masası",
	"tiles":         "taş",
	"log":           "kayıt",
	"okey":          "okey",
	"(gösterme)":    "(gösterme)",
	"no tile there": "orada taş yok",
	"keys: d draw · t take · x discard · w win · g show · h hint · arrows move · space pick up/put down · s r p sort · u undo · q leave": "tuşlar: d çek · t al · x at · w bitir · g göster · h öner · oklar taşı · boşluk kaldır/bırak · s r p diz · u geri al · q kalk",
	"the table's process is gone: this page no longer plays":                                                                 "masanın süreci kapandı: bu sayfa artık oynamıyor",
	"you left the table; the match is saved: okey play --resume continues it":                                                "masadan kalktınız; maç kaydedildi: okey play --resume kaldığı yerden sürdürür",
	"play in your web browser, served by this process at http://127.0.0.1: the lobby (with --bots, the table), every preset": "web tarayıcınızda oynayın, bu süreç http://127.0.0.1 adresinde sunar: salonu (--bots ile masayı), her ön ayarla",
	"with --web: print the table's address, do not open the browser":                                                         "--web ile: masanın adresini yaz, tarayıcıyı açma",
	"okey: the web table cannot listen: %s\n":                                                                                "okey: web masası dinleyemiyor: %s\n",
	"okey: the table is at %s\n":                                                                                             "okey: masa şu adreste: %s\n",
	"okey: no browser to open here: open that address in a browser on this computer":                                         "okey: burada açılacak tarayıcı yok: o adresi bu bilgisayardaki bir tarayıcıda açın",
	"okey: Ctrl-C or the page's leave button leaves the table":                                                               "okey: Ctrl-C ya da sayfadaki çık düğmesi masadan kaldırır",
})
