package i18n

// The Turkish catalogue of Okey 101 at the web table (web/), of the
// spectator's page and of the replay's page.
var _ = turkish(map[string]string{
	"keys: d draw · t take · b give back · space select · l lay · a add · 1-9 A-Z add to that meld · x discard · h hint · m move a tile · c clear · s r p sort · u undo · q leave": "tuşlar: d çek · t al · b geri ver · boşluk seç · l aç · a işle · 1-9 A-Z o pere işle · x at · h öner · m taşı kaydır · c temizle · s r p diz · u geri al · q kalk",
	"the tile stays on your rack": "taş ıstakanızda kalıyor",
	"show the replay in your web browser, served by this process at http://127.0.0.1": "yeniden oynatmayı web tarayıcınızda gösterin; bu süreç http://127.0.0.1 adresinde sunar",
	"watch in your web browser, served by this process at http://127.0.0.1":           "web tarayıcınızda izleyin; bu süreç http://127.0.0.1 adresinde sunar",
	"first":         "ilk",
	"forward":       "ileri",
	"last":          "son",
	"previous hand": "önceki el",
	"next hand":     "sonraki el",
	"keys: left/right step · up/down change hand · home/end · q leave": "tuşlar: sol/sağ adım · yukarı/aşağı el değiştir · home/end · q çık",
	"hand %d · move %d of %d":            "el %d · hamle %d / %d",
	"round %d · move %d of %d":           "el %d · hamle %d / %d",
	"waiting for the table's first move": "masanın ilk hamlesi bekleniyor",
})
