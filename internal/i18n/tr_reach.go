package i18n

// The Turkish catalogue of reaching tables beyond one LAN: okey relay, and
// the --relay and --serve-relay flags of okey play and okey bot.
var _ = turkish(map[string]string{
	"relay %s refused to register the table: the invite code does not go through it (friends behind a strict router cannot join). Ask the relay's operator for the line okey relay prints and start again with --relay LINE.": "%s aktarıcısı masayı kaydetmeyi reddetti: davet kodu onun üzerinden geçmiyor (katı bir modemin arkasındaki arkadaşlar katılamaz). Aktarıcının işletmecisinden okey relay'in yazdığı satırı iste ve --relay SATIR ile yeniden başla.",
	"relay %s refused the table (%s): the invite code does not go through it.":                             "%s aktarıcısı masayı reddetti (%s): davet kodu onun üzerinden geçmiyor.",
	"replace the relay's key (its line): the old line registers nothing any more":                          "aktarıcının anahtarını (satırını) değiştir: eski satır artık hiçbir şey kaydetmez",
	"remove the relay's key: only the allow-list registers tables":                                         "aktarıcının anahtarını kaldır: masaları yalnız izin listesi kaydeder",
	"--new-key and --no-key exclude each other":                                                            "--new-key ile --no-key birlikte verilemez",
	"okey: relay: give your friends the relay line above, once; each starts with okey play --relay LINE\n": "okey: relay: yukarıdaki aktarıcı satırını arkadaşlarına bir kez ver; her biri okey play --relay SATIR ile başlar\n",
	"run a relay for your friends' tables: only admitted players, never an open relay":                     "arkadaşlarının masaları için bir aktarıcı çalıştır: yalnız kabul edilen oyuncular, asla herkese açık değil",
	"multiaddr of a relay, ending in /p2p/<id> (repeatable; kept with the data; none clears)":              "bir aktarıcının multiaddr'ı, /p2p/<kimlik> ile biter (tekrarlanabilir; verilerle saklanır; none siler)",
	"serve as the relay of the tables this bot creates (a publicly reachable host)":                        "bu botun açtığı masaların aktarıcısı ol (internetten ulaşılabilen bir makine)",
	"serve as the relay of the tables you create (a publicly reachable host)":                              "açtığın masaların aktarıcısı ol (internetten ulaşılabilen bir makine)",
	"--relay: %v":         "--relay: %v",
	"okey: --relay: %s\n": "okey: --relay: %s\n",
	"multiaddr to listen on (repeatable; default TCP and QUIC on port 4001 of every interface)":                          "dinlenecek multiaddr (tekrarlanabilir; varsayılan: her arayüzde 4001 portunda TCP ve QUIC)",
	"peer id of a player who may register tables (repeatable)":                                                           "masa kaydedebilecek bir oyuncunun eş kimliği (tekrarlanabilir)",
	"an address to print and give out besides the relay's own (repeatable)":                                              "aktarıcının kendi adreslerinin yanında yazılıp verilecek bir adres (tekrarlanabilir)",
	"data directory: identity, allow-list, registered tables (default: the user's config directory, subdirectory relay)": "veri klasörü: kimlik, izin listesi, kayıtlı masalar (varsayılan: kullanıcının ayar klasöründe relay alt klasörü)",
	"bytes a second relayed from one player at most":                                                                     "bir oyuncudan saniyede en çok aktarılan bayt",
	"log every request":            "her isteği günlüğe yaz",
	"--announce %q: %v":            "--announce %q: %v",
	"--allow %q: not a peer id":    "--allow %q: eş kimliği değil",
	"--rate must be at least 1024": "--rate en az 1024 olmalı",
	"okey: relay: %s\n":            "okey: relay: %s\n",
})
