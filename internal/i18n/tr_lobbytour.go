package i18n

// The Turkish catalogue of the tournaments in the LAN lobby (issue 27):
// the list, registering with j, the standings between rounds.
var _ = turkish(map[string]string{
	"up/down choose  j register and play  c create  q quit": "yukarı/aşağı seç  j katıl ve oyna  c aç  q çık",
	"you play in %s: each round's table opens by itself":    "%s turnuvasında oynuyorsun: her turun masası kendiliğinden açılır",
	"%s is under way: registration is closed":               "%s başladı: katılım kapandı",
	"%s is full":                                       "%s dolu",
	"registering in %s":                                "%s turnuvasına katılınıyor",
	"round %d of %d":                                   "%d. tur (%d turdan)",
	"registering, %d rounds":                           "katılım açık, %d tur",
	"points %s":                                        "puanlar %s",
	"you play":                                         "sen oynuyorsun",
	"tournaments (j: register and play)":               "turnuvalar (j: katıl ve oyna)",
	"%d more tournaments: up/down scrolls":             "%d turnuva daha: yukarı/aşağı kaydırır",
	"standings after round %d of %d:":                  "%d. turdan sonra puan durumu (%d tur):",
	"%d. %s: %d points, score %d":                      "%d. %s: %d puan, skor %d",
	"not a tournament id: %s":                          "turnuva kimliği değil: %s",
	"the tournament stopped: %s":                       "turnuva durdu: %s",
	"the tournament is over: okey verify %s checks it": "turnuva bitti: okey verify %s onu denetler",
	"the registration is not out yet; it goes on in the background":     "katılım kaydı henüz gitmedi; arka planda sürüyor",
	"j on the tournament in the lobby resumes your part while it runs.": "Lobide turnuvanın üzerinde j, sürdükçe kaldığın yerden devam ettirir.",
})

var _ = turkish(map[string]string{
	"give the tournament a name":                              "turnuvaya bir ad ver",
	"announcing %s":                                           "%s duyuruluyor",
	"announce a tournament":                                   "turnuva duyur",
	"name     %s_":                                            "ad       %s_",
	"players  < %d >  (you among them)":                       "oyuncu   < %d >  (sen de içinde)",
	"rounds   < %d >  (Swiss; points 3-2-1-0)":                "tur      < %d >  (İsviçre; puan 3-2-1-0)",
	"points=2: a short match at each table":                   "points=2: her masada kısa bir maç",
	"tab next  left/right change  enter announce  esc cancel": "tab sonraki  sol/sağ değiştir  enter duyur  esc vazgeç",
	"no tournaments on the LAN: t announces one":              "ağda turnuva yok: t bir tane duyurur",
	"tournaments (j: register and play, t: announce one)":     "turnuvalar (j: katıl ve oyna, t: turnuva duyur)",
})

var _ = englishPlural(map[string]string{
	"%d more tournaments: up/down scrolls": "1 more tournament: up/down scrolls",
})
