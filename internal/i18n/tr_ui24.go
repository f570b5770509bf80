package i18n

// The Turkish of issue 24's cut-word fixes (ui/): the shorter help lines,
// the lobby's address, the wrapped panels.
var _ = turkish(map[string]string{
	"move the cursor (with a tile picked up: where it goes)":                   "imleci taşı (taş kaldırılmışsa: gideceği yer)",
	"pick up the tile at the cursor; again: put it down there":                 "imleçteki taşı kaldır; tekrar: oraya bırak",
	"draw from the stock (stock empty: end the hand)":                          "desteden taş çek (deste bittiyse: eli bitir)",
	"win with the tile at the cursor (on a gap: no discard)":                   "imleçteki taşla bitir (boşlukta: taş atmadan)",
	"gösterme: show the indicator's twin (before you first draw)":              "gösterme: göstergenin eşini göster (ilk çekişinden önce)",
	"hint: the best discard, and how far you are from a win":                   "öneri: en iyi atış ve bitmeye kaç taş kaldığı",
	"the stock: draw; the tile to take: take; your pile: discard":              "desteye: çek; alınacak taşa: al; kendi yanına: at",
	"A: %s and %s, B: %s and %s; partners share a score":                       "A: %s ve %s, B: %s ve %s; eşler puanı paylaşır",
	"%d s a turn, then the program plays the hint's move":                      "her hamle %d sn; sonra program önerinin hamlesini oynar",
	"others can reach you with --peer and this address:":                       "başkaları sana --peer ve şu adresle ulaşabilir:",
	"others reach you with --peer and this address, one line (split here):":    "başkaları sana --peer ve bu adresle ulaşır, tek satır (burada bölündü):",
	"right next  left back  down next hand  up hand start  home end  q quit":   "sağ ileri  sol geri  aşağı sonraki el  yukarı el başı  home end  q çık",
	"right next  left back  down next round  up round start  home end  q quit": "sağ ileri  sol geri  aşağı sonraki el  yukarı el başı  home end  q çık",
	"you won with groups":            "perlerle bitirdin",
	"you won with seven pairs":       "yedi çiftle bitirdin",
	"add %s":                         "işle: %s",
	"swap %s":                        "değiş: %s",
	"lay %s":                         "aç: %s",
	"discard the %s (x): you finish": "%s taşını at (x): eli bitirirsin",
})
