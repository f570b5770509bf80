package i18n

// The Turkish catalogue of the table's chat (protocol.md 7.13): the chat
// line, the quick messages, muting, and okey verify's skipped chat file.
var _ = turkish(map[string]string{
	"%s: a table's chat, not a transcript: skipped (it is no part of a verdict)\n": "%s: masanın sohbeti, kayıt değil: atlandı (hiçbir kararın parçası değil)\n",
	// The quick messages (protocol.md 7.13's table).
	"well played":      "iyi oyundu",
	"hurry up, please": "biraz hızlı lütfen",
	"thanks":           "sağ ol",
	"good luck":        "bol şans",
	"sorry":            "kusura bakma",
	"one more?":        "bir el daha?",
	"nice move":        "güzel hamle",
	"bye":              "görüşürüz",
	"quick message %d": "hızlı mesaj %d",
	// The chat line and its panel.
	"player %d":                         "%d. oyuncu",
	"chat · %s":                         "sohbet · %s",
	"chat":                              "sohbet",
	"say:":                              "yaz:",
	"enter sends · esc cancels":         "enter gönderir · esc vazgeçer",
	"quick messages, or your own words": "hızlı mesajlar ya da kendi sözlerin",
	"type your own words":               "kendi sözlerini yaz",
	"mute or unmute a player":           "bir oyuncuyu sustur ya da aç",
	"mute a player":                     "bir oyuncuyu sustur",
	"%s (muted: again to unmute)":       "%s (susturuldu: bir daha basınca açılır)",
	"wait a moment before sending more": "biraz bekle, sonra yine yaz",
	"the message was not sent: %s":      "mesaj gönderilmedi: %s",
	"%s is no longer muted":             "%s artık susturulmuş değil",
	"%s is muted: you no longer see their messages (again / m to unmute)": "%s susturuldu: mesajlarını artık görmezsin (açmak için yine / m)",
	"chat: quick messages by their digit, your own words, mute a player":  "sohbet: rakamıyla hızlı mesajlar, kendi sözlerin, oyuncu susturma",
})
