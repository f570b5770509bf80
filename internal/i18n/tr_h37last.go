package i18n

// Switching tables from inside okey watch (issue 37, 8).
var _ = turkish(map[string]string{
	"no other started table to watch now": "şu an izlenecek başka başlamış masa yok",
	"watch another table":                 "başka bir masayı izle",
	"Choosing a table leaves this one (okey watch with the same --data resumes it).": "Bir masa seçmek bundan ayrılır (aynı --data ile okey watch onu sürdürür).",
	"keep watching this table": "bu masayı izlemeyi sürdür",
	"left/p back  right/n next  end live  up/down hands  w tables  q leave": "sol/p geri  sağ/n ileri  end canlı  yukarı/aşağı eller  w masalar  q ayrıl",
	"okey: watch: table %s is no longer announced\n":                        "okey: watch: %s masası artık duyurulmuyor\n",
	"okey: watch: watching table %s (%s: %s)\n":                             "okey: watch: %s masası izleniyor (%s: %s)\n",
})
