package i18n

// The Turkish catalogue of the web lobby's unfinished matches, its watch
// button and the table page's links (web/lobby.go, web/state.go).
var _ = turkish(map[string]string{
	"your unfinished matches":             "yarım kalan maçlarınız",
	"resume":                              "devam et",
	"drop":                                "listeden çıkar",
	"watch":                               "izle",
	"against bots":                        "botlara karşı",
	"wait: a table is open already":       "bekleyin: zaten açık bir masa var",
	"resuming %s":                         "devam ediliyor: %s",
	"only a started table can be watched": "yalnız başlamış bir masa izlenebilir",
	"drop again drops it (moved whole to %s in the data dir; it still verifies)": "listeden çıkar'a bir daha basın: maç veri klasöründe bütünüyle %s altına taşınır; kaydı yine doğrulanır",
})
