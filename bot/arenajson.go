package bot

// The JSON of okey arena --json: the figures of a line-up and, with --vs,
// of a second line-up on the same deals and their pairing. Field names are
// the output's; the intervals are 95%.

// ArenaLine is one strategy's figures.
type ArenaLine struct {
	Strategy  string  `json:"strategy"`
	Seats     int     `json:"seats"`
	Wins      int     `json:"wins"`
	Share     float64 `json:"share"`
	CILow     float64 `json:"ci95_low"`
	CIHigh    float64 `json:"ci95_high"`
	AvgScore  float64 `json:"avg_score"`
	Groups    int     `json:"groups"`
	Pairs     int     `json:"pairs"`
	Okey      int     `json:"okey"`
	SeatHands int     `json:"seat_hands"`
	// Clustered by deal.
	DealLow   float64 `json:"share_deal_ci95_low"`
	DealHigh  float64 `json:"share_deal_ci95_high"`
	Placement float64 `json:"placement"`
	PlaceLow  float64 `json:"placement_ci95_low"`
	PlaceHigh float64 `json:"placement_ci95_high"`
}

// ArenaLineup is a second line-up's figures.
type ArenaLineup struct {
	Bots       []string    `json:"bots"`
	Stalemates int         `json:"stalemates"`
	Strategies []ArenaLine `json:"strategies"`
}

// ArenaPairing is the first strategies of two line-ups compared deal by
// deal.
type ArenaPairing struct {
	A         string      `json:"a"`
	B         string      `json:"b"`
	Vs        ArenaLineup `json:"vs"`
	Share     [3]float64  `json:"share_diff"`     // A-B, 95% low, high
	Placement [3]float64  `json:"placement_diff"` // A-B, 95% low, high
}

// ArenaOutput is okey arena --json's object.
type ArenaOutput struct {
	Rules      string        `json:"rules"`
	Bots       []string      `json:"bots"`
	Seed       uint64        `json:"seed"`
	Hands      int           `json:"hands"`
	Deals      int           `json:"deals"`
	Stalemates int           `json:"stalemates"`
	Strategies []ArenaLine   `json:"strategies"`
	Paired     *ArenaPairing `json:"paired,omitempty"`
}

// ArenaVs is a second line-up played on the same deals, and the pairing.
type ArenaVs struct {
	Bots   []string
	Result ArenaResult
	Paired Paired
}

// ArenaJSON is the JSON of the arena's result res of the line-up bots
// (seed the seed given), and of vs when not nil.
func ArenaJSON(res ArenaResult, bots []string, seed uint64, vs *ArenaVs) ArenaOutput {
	out := ArenaOutput{Rules: res.Rules, Bots: bots, Seed: seed, Hands: res.Hands, Deals: res.Deals(), Stalemates: res.Stalemates, Strategies: arenaLines(res)}
	if vs != nil {
		p := vs.Paired
		out.Paired = &ArenaPairing{A: p.A, B: p.B, Vs: ArenaLineup{Bots: vs.Bots, Stalemates: vs.Result.Stalemates, Strategies: arenaLines(vs.Result)},
			Share:     [3]float64{p.Share.Est, p.Share.Lo, p.Share.Hi},
			Placement: [3]float64{p.Placement.Est, p.Placement.Lo, p.Placement.Hi}}
	}
	return out
}

func arenaLines(r ArenaResult) []ArenaLine {
	var out []ArenaLine
	for _, s := range r.Stats {
		p, lo, hi := r.Share(s)
		sh, pl := r.ShareByDeal(s), r.Placement(s)
		out = append(out, ArenaLine{Strategy: s.Name, Seats: s.Seats, Wins: s.Wins, Share: p,
			CILow: lo, CIHigh: hi, AvgScore: s.Avg(), Groups: s.Groups, Pairs: s.Pairs, Okey: s.Okey, SeatHands: s.SeatHands,
			DealLow: sh.Lo, DealHigh: sh.Hi, Placement: pl.Est, PlaceLow: pl.Lo, PlaceHigh: pl.Hi})
	}
	return out
}
