package i18n

// The Turkish catalogue of the table's chat (protocol.md 7.13): the chat
// line, the quick messages, muting, and okey verify's skipped chat file.
var _ = turkish(map[string]string{
	"%s: a table's chat, not a transcript: skipped (it is no part of a verdict)\n": "%s: masanın sohbeti, kayıt değil: atlandı (hiçbir kararın parçası değil)\n",
})
