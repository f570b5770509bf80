package i18n

// The Turkish catalogue of issue 24's lobby, chooser and command fixes.
var _ = turkish(map[string]string{
	// the lobby: r and l act on the table the player sits at
	"%s: done; everyone at the table presses r when ready, you too": "%s: tamam; masadaki herkes hazır olunca r'ye basar, sen de",
	"you sit at several tables: select the one you mean":            "birden çok masada oturuyorsun: hangisini istediğini seç",
	"you sit at no table: j joins the selected one, c opens one":    "hiçbir masada oturmuyorsun: j seçili masaya katılır, c masa açar",

	// okey play after leaving a LAN match
	"okey: left the table; the match is saved: okey play offers it in the lobby to resume": "okey: masadan kalktın; maç kayıtlı: okey play salonda devam etmeyi önerir",

	// dropping a match against bots left unfinished
	"No match against bots is left unfinished.":                            "Botlara karşı yarım kalan maç yok.",
	"drop a match (kept under %s in the data dir)":                         "bir maçı listeden çıkar (veri klasöründe %s altında saklanır)",
	"Drop which match? It moves to %s in the data dir, whole:":             "Hangi maç çıkarılsın? Veri klasöründe bütünüyle %s altına taşınır:",
	"its transcript still verifies (unfinished); it is no longer offered.": "kaydı yine doğrulanır (yarım); devam etmek için artık sunulmaz.",
	"drop %s":                  "çıkar: %s",
	"drop an unfinished match": "yarım kalan maçı çıkar",
	"back":                     "geri",
	"not dropped: %s":          "çıkarılamadı: %s",
	"dropped: %s":              "çıkarıldı: %s",
})
