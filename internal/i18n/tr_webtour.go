package i18n

// The Turkish catalogue of the tournaments on the web lobby's page
// (web/lobby_tour.go, cmd/okey/lobby_tournament.go).
var _ = turkish(map[string]string{
	"tournaments on the LAN":                     "yerel ağdaki turnuvalar",
	"no tournament on the LAN yet: announce one": "yerel ağda henüz turnuva yok: bir turnuva duyurun",
	"name":              "ad",
	"rounds":            "tur",
	"register and play": "katıl ve oyna",
	"Swiss; points 3-2-1-0; points=2: a short match at each table":      "İsviçre usulü; puan 3-2-1-0; points=2: her masada kısa bir maç",
	"that tournament is no longer announced":                            "o turnuva artık duyurulmuyor",
	"you left the tournament: %s on it resumes your part while it runs": "turnuvadan ayrıldın: sürdükçe üzerinde %s ile kaldığın yerden devam edersin",
	"This match ended unfinished: you did not move for %s, and the other seats stopped waiting. The standings count it as the tournament's records say; your part goes on to the next round's draw (%s: the lobby and the standings).": "Bu maç yarım kaldı: %s hamle yapmadın ve diğer oyuncular beklemeyi bıraktı. Sıralama bunu turnuvanın kayıtlarının dediği gibi sayar; sen bir sonraki turun kurasına katılırsın (%s: lobi ve sıralama).",
	"This match ended unfinished: the seat it waited for stopped. The standings count it as the tournament's records say; your part goes on to the next round's draw (%s: the lobby and the standings).":                               "Bu maç yarım kaldı: beklenen oyuncu durdu. Sıralama bunu turnuvanın kayıtlarının dediği gibi sayar; sen bir sonraki turun kurasına katılırsın (%s: lobi ve sıralama).",
})
