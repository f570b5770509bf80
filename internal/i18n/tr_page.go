package i18n

// The Turkish catalogue of okey verify --html (issue 39 part 4): the
// command's messages, the page's words and its replay.
var _ = turkish(map[string]string{
	"message %d does not decode: %s": "%d. mesaj çözülemiyor: %s",
	"okey: check a match transcript": "okey: bir maçın kaydını denetle",
	"This page checks an okey transcript with okey's own verifier, in your browser, offline: the signatures and their chain, every proof, the audits, every move against the rules and the scores. It names a seat only on proof signed by that seat.": "Bu sayfa bir okey kaydını okey'in kendi denetleyicisiyle, tarayıcında, çevrimdışı denetler: imzaları ve zincirlerini, her kanıtı, denetimleri, her hamleyi kurallara göre ve puanları. Bir oyuncuyu ancak o oyuncunun imzaladığı kanıtla suçlar.",
	"Drop a transcript (.okey) on this page, or choose one:": "Bir kaydı (.okey) bu sayfanın üzerine bırak ya da seç:",
	"starting the verifier...":                               "denetleyici başlatılıyor...",
	"checking %s...":                                         "%s denetleniyor...",
	"this browser cannot run the verifier: %s":               "bu tarayıcı denetleyiciyi çalıştıramıyor: %s",
	"Verdict":                         "Karar",
	"as okey verify --json prints it": "okey verify --json'un yazdığı gibi",
	"Hands":                           "Eller",
	"winner":                          "kazanan",
	"points":                          "puan",
	"rack at the end":                 "sondaki ıstaka",
	"Messages":                        "Mesajlar",
	"step":                            "adım",
	"seat":                            "oyuncu",
	"kind":                            "tür",
	"at the table":                    "masada",
	"no hand ended":                   "biten el yok",
	"the transcript inside this page": "bu sayfadaki kayıt",
	"checked in %s ms":                "%s ms'de denetlendi",
	"write a page that checks a transcript in any browser":          "bir kaydı her tarayıcıda denetleyen bir sayfa yaz",
	"okey: --html takes the page's file and at most one transcript": "okey: --html sayfanın dosyasını ve en çok bir kaydı alır",
	"okey: --html needs okey's verifier compiled to WebAssembly, %s, and found none (looked at %s): build it with make build (it writes bin/okey-verify.wasm beside bin/okey), or name it with %s=PATH\n": "okey: --html, okey'in WebAssembly'ye derlenmiş denetleyicisi %s'i gerektirir ve hiçbirini bulamadı (bakılan yerler: %s): make build ile derle (bin/okey'in yanına bin/okey-verify.wasm yazar) ya da %s=YOL ile göster\n",
	"okey: wrote %s (%d KB): open it in any browser, offline, or send it; it checks a transcript dropped on it as okey verify does\n":                                                                     "okey: %s yazıldı (%d KB): herhangi bir tarayıcıda çevrimdışı aç ya da gönder; üzerine bırakılan bir kaydı okey verify gibi denetler\n",
	"language": "dil",
})
