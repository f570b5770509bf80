package i18n

// The Turkish catalogue of the web table's chat (web/chat.go): its panel
// and its refusals.
var _ = turkish(map[string]string{
	"send":                              "gönder",
	"mute":                              "sustur",
	"unmute":                            "aç",
	"your own words: enter sends":       "kendi sözlerin: enter gönderir",
	"no message yet":                    "henüz mesaj yok",
	"/ chat · enter sends · esc closes": "/ sohbet · enter gönderir · esc kapatır",
	"this table has no chat":            "bu masada sohbet yok",
	"there is no quick message %d":      "%d numaralı hızlı mesaj yok",
	"the message is too long: at most %d characters": "mesaj çok uzun: en çok %d karakter",
	"there is nothing to send":                       "gönderilecek bir şey yok",
	"there is no such player to mute":                "susturulacak böyle bir oyuncu yok",
	"%s is muted: you no longer see their messages":  "%s susturuldu: mesajlarını artık görmezsin",
	"spectators read the chat and do not post":       "izleyiciler sohbeti okur, yazmaz",
})
