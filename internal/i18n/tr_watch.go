package i18n

// The Turkish catalogue of okey watch (cmd/okey/watch.go) and the
// spectator's screen (ui/watch.go). A spectator is an izleyici; to watch
// is izlemek.
var _ = turkish(map[string]string{
	"okey watch · %s · catching up with the table (message %d)": "okey watch · %s · masaya yetişiliyor (mesaj %d)",
	"live":    "canlı",
	"back %d": "%d geride",
	"ended":   "bitti",
	"okey watch · %s · %s %d · message %d · %s": "okey watch · %[1]s · %[3]d. %[2]s · mesaj %[4]d · %[5]s",
	"hand": "el",
	"watching: racks stay hidden until each hand's audit":                              "izleniyor: istakalar her elin denetimine kadar kapalı",
	"left/p back  right/n next  end live  up/down hands  q leave":                      "sol/p geri  sağ/n ileri  end canlı  yukarı/aşağı eller  q ayrıl",
	"watch a table (LAN or invite code) live, keep its transcript":                     "bir masayı (yerel ağ ya da davet kodu) canlı izle, kaydını tut",
	"%s: watched to its end before: %s; transcript %s\n":                               "%s: daha önce sonuna kadar izlendi: %s; kayıt %s\n",
	"no screen: follow the table and print its result (for scripts)":                   "ekran yok: masayı izle ve sonucunu yaz (betikler için)",
	"directory for the transcript (default: the match's folder in the data directory)": "kaydın klasörü (varsayılan: veri klasöründeki maçın klasörü)",
	"give up when the table is not seen started after this long":                       "masa bu süre içinde başlamış görünmezse vazgeç",
	"stop when the table makes no progress for this long (silence names no one)":       "masa bu süre boyunca ilerlemezse dur (sessizlik kimseyi suçlamaz)",
	"takes at most one table, got %q":                                                  "en çok bir masa alır, %q verildi",
	"--wait must be positive":                                                          "--wait pozitif olmalı",
	"okey: watch: %s\n":                                                                "okey: watch: %s\n",
	"the watch stopped: %s":                                                            "izleme durdu: %s",
	"unfinished, honest so far: seat %d (%s) stopped answering; no one is named":       "yarım, buraya kadar dürüst: oyuncu %d (%s) yanıt vermeyi bıraktı; kimse suçlanmıyor",
	"okey: no terminal to watch at: %s\n":                                              "okey: izlemek için terminal yok: %s\n",
	"okey: watch: left table %s; run again with --data %s to resume\n":                 "okey: watch: %s masasından ayrıldın; kaldığın yerden sürmek için --data %s ile yeniden çalıştır\n",
	"no started table found within --wait %v":                                          "--wait %v içinde başlamış masa bulunamadı",
	"table %s was not seen started within --wait %v":                                   "%s masası --wait %v içinde başlamış görünmedi",
	"that table admits spectators by invite code: okey watch --code CODE":              "o masa izleyicileri davet koduyla alır: okey watch --code KOD",
	"up/down choose  w watch  c create  l leave  q quit":                               "yukarı/aşağı seç  w izle  c aç  l kalk  q çık",
	"up/down choose  w watch  c create  k join by code  l leave  q quit":               "yukarı/aşağı seç  w izle  c aç  k kodla katıl  l kalk  q çık",
	"w watches a started table: select it first":                                       "w başlamış bir masayı izler: önce onu seç",
	"you sit at that table: it is yours to play, not to watch":                         "o masada oturuyorsun: izlemek için değil, oynamak için",
	"watching %s...":                  "%s izleniyor...",
	"table %s is no longer announced": "%s masası artık duyurulmuyor",
	"watch the private table of this invite code (- reads it from standard input)": "bu davet kodunun özel masasını izle (- onu standart girdiden okur)",
	"the code is for table %s, not %s":                                             "kod %s masası için, %s için değil",
})
