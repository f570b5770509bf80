package i18n

// The Turkish catalogue of issue 36's screen part of a relay's refusal, and
// of the lobby's reachable address.
var _ = turkish(map[string]string{
	"relay %s refused your table, so its invite code does not go through it (friends behind a strict router cannot join): ask the relay's operator for the line okey relay prints and restart okey play with --relay LINE.": "%s aktarıcısı masanı reddetti, bu yüzden davet kodu onun üzerinden geçmiyor (katı bir modemin arkasındaki arkadaşlar katılamaz): aktarıcının işletmecisinden okey relay'in yazdığı satırı iste ve okey play'i --relay SATIR ile yeniden başlat.",
	"code not through relay %s": "kod %s aktarıcısından geçmiyor",
	"no address reaches you with --peer: send an invite code, or use --relay LINE": "sana --peer ile ulaşan adres yok: bir davet kodu gönder ya da --relay SATIR kullan",
})
