package i18n

// The Turkish catalogue of issue 36's pasted invite codes.
var _ = turkish(map[string]string{
	// the lobby's join-by-code box after an enter on part of a code
	"not a whole code yet: paste or type the rest, then enter (esc cancels):": "henüz tam bir kod değil: kalanını yapıştır ya da yaz, sonra enter (esc vazgeçer):",
	"not a whole invite code: %s": "tam bir davet kodu değil: %s",
})
