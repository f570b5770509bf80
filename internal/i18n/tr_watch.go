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
	"watching: racks stay hidden until each hand's audit":                     "izleniyor: istakalar her elin denetimine kadar kapalı",
	"left/p back  right/n next  end live  up/down hands  q leave":             "sol/p geri  sağ/n ileri  end canlı  yukarı/aşağı eller  q ayrıl",
	"follow a table on the LAN as a spectator, live, and keep its transcript": "ağdaki bir masayı izleyici olarak canlı izle ve kaydını tut",
	"usage: okey watch [--no-ui] [--code CODE|-] [--data DIR] [--out DIR] [--wait D] [--withhold D]\n                  [--listen MULTIADDR]... [--no-mdns] [--peer MULTIADDR]... [-v] [--log FILE]\n                  [TABLE]\n\nFollows a started table as a spectator: no seat, no key at the table, no\nsecret. It shows what a kibitzer standing behind no one may see: the\nindicator, every discard pile, the stock, the melds on the table in 101, the\nscores and the log; never a rack, until each hand's audit makes every tile\npublic: then that hand's racks show with its result. TABLE is the table's\nid; without it, the first started table the lobby shows that this peer does\nnot sit at. A public table (a LAN table) admits any spectator; a private\ntable admits the holders of its invite code: --code CODE (--code - reads it\nfrom standard input) watches the table of that code, proving to each seat\nthat this peer holds it.\n\nThe spectator catches up from the members when it joins (in the middle of\na match too), may leave at any time (q, or Ctrl-C), and resumes with the\nsame --data. It keeps the same transcript file a seat keeps, in the same\nfolder layout (DATA/matches/TABLE/, and TABLE.okey in --out), which okey\nverify judges as it judges a seat's: a spectator can be the witness who\nkeeps the record. It never publishes into the table.\n\n--no-ui follows the table without a screen (for scripts), and prints the\nmatch's result when the table ends.\n\nExit status: 0 the transcript verifies honest and complete; 1 a seat is\nnamed on proof signed by that seat; 2 bad usage, or a transcript that does\nnot hold; 3 unfinished: the watch was left or interrupted (run it again\nwith the same --data to resume), or the table stopped; 4 no started table\nTABLE was found within --wait.\n": "kullanım: okey watch [--no-ui] [--code KOD|-] [--data KLASÖR] [--out KLASÖR] [--wait S] [--withhold S]\n                  [--listen MULTIADDR]... [--no-mdns] [--peer MULTIADDR]... [-v] [--log DOSYA]\n                  [MASA]\n\nBaşlamış bir masayı izleyici olarak izler: masada yeri, anahtarı, sırrı yok.\nKimsenin arkasında durmayan bir seyircinin görebileceğini gösterir: gösterge,\nbütün atılan taşlar, deste, 101'de masadaki perler, puanlar ve günlük; hiçbir\nistakayı göstermez, ta ki her elin denetimi bütün taşları açana kadar: o\nzaman o elin istakaları sonucuyla birlikte görünür. MASA masanın kimliğidir;\nverilmezse lobinin gösterdiği, bu eşin oturmadığı ilk başlamış masa. Açık bir\nmasa (yerel ağ masası) her izleyiciyi kabul eder; özel bir masa davet kodunu\ntutanları: --code KOD (--code - onu standart girdiden okur) o kodun masasını\nizler ve her oyuncuya bu eşin kodu tuttuğunu ispatlar.\n\nİzleyici katıldığında (maçın ortasında da) oyunculardan eksiğini tamamlar,\nistediği an ayrılabilir (q ya da Ctrl-C) ve aynı --data ile kaldığı yerden\nsürer. Bir oyuncunun tuttuğu kayıt dosyasının aynısını, aynı klasör\ndüzeninde tutar (DATA/matches/MASA/, ve --out içinde MASA.okey); okey verify\nonu bir oyuncununkini yargıladığı gibi yargılar: bir izleyici kaydı tutan\ntanık olabilir. Masaya asla bir şey yayınlamaz.\n\n--no-ui masayı ekransız izler (betikler için) ve masa bitince maçın sonucunu\nyazar.\n\nÇıkış kodu: kayıt dürüst ve tam doğrulanırsa 0; bir oyuncu kendi imzaladığı\nkanıtla suçlanıyorsa 1; yanlış kullanım ya da tutmayan bir kayıt için 2;\nyarım: izleme bırakıldı ya da kesildi (kaldığı yerden sürmek için aynı\n--data ile yeniden çalıştır), ya da masa durdu: 3; başlamış bir MASA --wait\nsüresince bulunamadıysa 4.\n",
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
