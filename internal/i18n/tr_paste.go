package i18n

// The Turkish catalogue of issue 36's pasted invite codes.
var _ = turkish(map[string]string{
	// the lobby's join-by-code box after an enter on part of a code
	"not a whole code yet: paste or type the rest, then enter (esc cancels):": "henüz tam bir kod değil: kalanını yapıştır ya da yaz, sonra enter (esc vazgeçer):",
	"not a whole invite code: %s": "tam bir davet kodu değil: %s",

	// okey's network errors (explainNet): one sentence, what to do next
	"the invite code's check does not match: a character is mistyped, missing or swapped; copy it again, whole":                           "davet kodunun denetimi tutmuyor: bir karakter yanlış yazılmış, eksik ya da yer değiştirmiş; kodu yeniden, bütünüyle kopyala",
	"the invite code does not admit to this table: it was revoked or forged; ask its creator for the current code":                        "davet kodu bu masaya almıyor: geri alınmış ya da sahte; masayı kurandan geçerli kodu iste",
	"the table's creator cannot be reached at any address of the code: check that its okey still runs, or play through a relay (--relay)": "masayı kurana kodun hiçbir adresinden ulaşılamıyor: onun okey'inin çalıştığına bak ya da bir aktarıcı üzerinden oyna (--relay)",
	"the table did not start in time": "masa zamanında başlamadı",
})
