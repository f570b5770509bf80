package i18n

// The Turkish catalogue of issue 39's model split: the classic move that
// ends a hand on an empty stock said its sentence in English only.
var _ = turkish(map[string]string{
	"the stock is empty: the hand ends": "deste bitti: el biter",
})
