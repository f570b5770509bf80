package i18n

// The Turkish catalogue of Okey 101 at the web table (web/), of the
// spectator's page and of the replay's page.
var _ = turkish(map[string]string{
	"keys: d draw · t take · b give back · space select · l lay · a add · 1-9 A-Z add to that meld · x discard · h hint · m move a tile · c clear · s r p sort · u undo": "tuşlar: d çek · t al · b geri ver · boşluk seç · l aç · a işle · 1-9 A-Z o pere işle · x at · h öner · m taşı kaydır · c temizle · s r p diz · u geri al",
	"the tile stays on your rack": "taş ıstakanızda kalıyor",
})
