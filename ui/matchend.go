package ui

import "github.com/okey-game/okey/table"

// EndOf is the end panel of a match whose transcript, kept at path, rep
// judges: the verdict, whether it verified or stopped unfinished, and the
// ranking (the report's; else, with res, the ranking its machine reached);
// with res, a match that did not end is said too (res.Ended).
func EndOf(path string, rep *table.Report, res *table.Result) *MatchEnd {
	end := &MatchEnd{Transcript: path, Verified: rep.Honest, Verdict: Verdict(rep),
		Unfinished: rep.Status() == table.StatusUnfinished, Ranking: rep.Ranking}
	if res == nil {
		return end
	}
	end.Err = res.Ended()
	if m := res.Machine; m != nil && end.Ranking == nil {
		if m.Match() != nil {
			end.Ranking = m.Match().Ranking()
		} else if m.Match101() != nil {
			end.Ranking = m.Match101().Ranking()
		}
	}
	return end
}
