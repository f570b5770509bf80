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
	"x drops an unfinished match: select it first":                            "x yarım kalan bir maçı listeden çıkarır: önce onu seç",
	"x again drops it (moved whole to %s in the data dir; it still verifies)": "çıkarmak için yine x (veri klasöründe %s altına taşınır; yine doğrulanır)",
	"a LAN match cannot be dropped: its players may resume it":                "yerel ağ maçı çıkarılamaz: oyuncuları devam edebilir",
	"not dropped: %s": "çıkarılamadı: %s",
	"dropped: %s":     "çıkarıldı: %s",

	// the lobby's kind of unfinished match
	"LAN": "yerel ağ",
	// the presets' names (ui.PresetName)
	"classic":       "Klasik",
	"turkish-rummy": "Türk rummy",
	"german":        "Alman",
	"101":           "Okey 101",

	// a verdict's evidence, said of the seat named (ui.Evidence)
	"the tile is not in that player's rack":                      "taş o oyuncunun istakasında yok",
	"it was not that player's turn":                              "sıra o oyuncuda değildi",
	"that player had to draw or take the discard first":          "o oyuncu önce taş çekmeli ya da yandaki taşı almalıydı",
	"that player had drawn already this turn":                    "o oyuncu bu hamlede zaten taş almıştı",
	"the stock was empty":                                        "deste bitmişti",
	"the stock was not empty":                                    "destede taş vardı",
	"there was no discard to take":                               "alınacak taş yoktu",
	"a revealed face contradicts the tiles":                      "açılan bir taş yüzü taşlarla çelişiyor",
	"gösterme was not allowed then":                              "o anda gösterme yapılamazdı",
	"the hand declared is not a winning hand":                    "bitti denen el bitmiyor",
	"a malformed move":                                           "bozuk bir hamle",
	"a move not allowed at that point of the hand":               "elin o anında yapılamayacak bir hamle",
	"that player had not opened":                                 "o oyuncu el açmamıştı",
	"an opening needs 101 points in melds or five doubles":       "el açmak için perlerde 101 puan ya da beş çift gerekir",
	"the discard taken had to be used that turn":                 "yandan alınan taş o hamlede kullanılmalıydı",
	"a turn ends with a discard: a tile had to stay in the rack": "her hamle bir taş atarak biter: istakada bir taş kalmalıydı",
	"that okey could not be taken":                               "o okey alınamazdı",
	"a message of another table or hand":                         "başka bir masanın ya da elin mesajı",
	"a message out of its place in the chain":                    "zincirdeki yerinde olmayan bir mesaj",
	"a message built on another chain":                           "başka bir zincire dayanan bir mesaj",
	"not a valid meld":                                           "geçerli bir per değil",
	"slot %d":                                                    "yuva %d",
})
