package i18n

// The Turkish catalogue of issue 36's relay line given in the lobby (y).
var _ = turkish(map[string]string{
	"not a whole relay line: %s":                                                 "tam bir aktarıcı satırı değil: %s",
	"this is not the line okey relay prints: copy it again, whole":               "bu, okey relay'in yazdığı satır değil: satırı yeniden, bütünüyle kopyala",
	"using the relay":                                                            "aktarıcı ekleniyor",
	"paste the line okey relay prints, then enter (esc cancels, ctrl-u clears):": "okey relay'in yazdığı satırı yapıştır, sonra enter (esc vazgeçer, ctrl-u siler):",
	"use a relay: paste the line okey relay prints":                              "bir aktarıcı kullan: okey relay'in yazdığı satırı yapıştır",
})
