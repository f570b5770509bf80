package collect

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/rating"
	"github.com/okey-game/okey/stats"
	"github.com/okey-game/okey/ui/tablemodel"
)

// sparkWidth is the width of a sparkline: with its labels (7 and 13
// columns) and its range it fits 80 columns.
const sparkWidth = 40

// WriteText writes the summary for a person, in the interface's language
// (okey stats without --json): the files read and left out and why, then
// the top players by matches, each with its figures and sparklines.
// cachePath is the cache used ("" none).
func WriteText(w io.Writer, o Summary, top int, cachePath string) {
	fmt.Fprint(w, i18n.T("%d files read: %d kept (honest and finished), %d unfinished, %d left out; a match's copies counted once: %d\n",
		o.Read, o.Kept, o.Unfinished, o.LeftOut, o.Duplicates))
	if cachePath != "" {
		fmt.Fprint(w, i18n.T("verified now: %d; verdicts from the cache (%s): %d\n", o.Verified, cachePath, o.FromCache))
	} else {
		fmt.Fprint(w, i18n.T("verified now: %d (no cache)\n", o.Verified))
	}
	// The copies of a match take one line for the match, however many
	// there are (--json lists each).
	copies := map[string]int{}
	for _, f := range o.Files {
		if f.Copy != "" {
			copies[f.Copy]++
		}
	}
	for _, f := range o.Files {
		switch {
		case f.Copy != "":
			if n := copies[f.Copy]; n > 0 {
				fmt.Fprint(w, i18n.T("  %s: counted once; its copies: %d\n", f.Copy, n))
				copies[f.Copy] = 0
			}
		case f.Status == string(stats.Unfinished):
			fmt.Fprint(w, i18n.T("  %s: unfinished, honest so far: counted as unfinished for its players, not as a loss\n", f.File))
		case f.Status == string(stats.Cheating):
			fmt.Fprint(w, i18n.T("  %s: left out: a seat is named on its own signed messages: %s\n", f.File, f.Reason))
		case f.Status == string(stats.Invalid):
			fmt.Fprint(w, i18n.T("  %s: left out: damaged or altered, no one named: %s\n", f.File, f.Reason))
		case f.Status == string(stats.Unreadable):
			fmt.Fprint(w, i18n.T("  %s: left out: unreadable: %s\n", f.File, f.Reason))
		}
	}
	fmt.Fprintln(w)
	if o.Matches == 0 && len(o.Players) == 0 {
		fmt.Fprintln(w, i18n.T("no finished match verifies: no record yet"))
		return
	}
	fmt.Fprint(w, i18n.T("%d matches. Ratings: Weng-Lin Plackett-Luce, OpenSkill's defaults (--json says\nwhich), shown only, never part of a verdict. Win share: 95%% Wilson interval.\n", o.Matches))
	for i, p := range o.Players {
		if i == top {
			fmt.Fprint(w, i18n.T("\n... and %d more players (--top, or --json for all)\n", len(o.Players)-top))
			break
		}
		fmt.Fprintln(w)
		writePlayer(w, p)
	}
}

// writePlayer writes one player's figures and sparklines.
func writePlayer(w io.Writer, p PlayerSummary) {
	head := fmt.Sprintf("%s · %s", p.Name, p.Short)
	if p.You {
		head += " " + i18n.T("(you)")
	}
	fmt.Fprintln(w, head)
	fmt.Fprint(w, i18n.T("  matches %d, wins %d (%.0f%%, 95%%: %.0f-%.0f%%), unfinished %d\n",
		p.Matches, p.Wins, 100*p.WinShare, 100*p.WinLow, 100*p.WinHigh, p.Unfinished))
	if p.Matches == 0 {
		return
	}
	fmt.Fprint(w, i18n.T("  rating %.1f ± %.1f (mu ± sigma; mu - 3 sigma %.1f)\n", p.Rating.Mu, p.Rating.Sigma, p.Ordinal))
	var sc []string
	for _, s := range p.Scores {
		sc = append(sc, i18n.T("%s %.1f (%d)", tablemodel.PresetName(s.Preset), s.Mean, s.Matches))
	}
	fmt.Fprint(w, i18n.T("  mean final score: %s\n", strings.Join(sc, ", ")))
	if p.Hands > 0 {
		fmt.Fprint(w, i18n.T("  hands won %d of %d: groups %d, seven pairs %d; with an okey discard %d\n",
			p.HandsWon, p.Hands, p.Groups, p.SevenPairs, p.OkeyDiscard))
	}
	if p.Rounds101 > 0 {
		fmt.Fprint(w, i18n.T("  Okey 101: rounds %d, finished %d (with an okey %d); opened: sets %d, doubles %d\n",
			p.Rounds101, p.Finished101, p.OkeyFinish, p.OpenedSets, p.OpenedPairs))
	}
	mus := []float64{rating.Default().Mu} // from a new player's rating
	for _, pt := range p.Series {
		mus = append(mus, pt.Mu)
	}
	fmt.Fprintf(w, "  %-7s %-13s %s %s\n", i18n.T("rating"), "", stats.Sparkline(mus, sparkWidth), i18n.T("%.1f → %.1f", mus[0], mus[len(mus)-1]))
	// The score, one line per preset: scores of different presets do not
	// compare.
	for _, sc := range p.Scores {
		var scores []float64
		for _, pt := range p.Series {
			if pt.Preset == sc.Preset {
				scores = append(scores, float64(pt.Score))
			}
		}
		fmt.Fprintf(w, "  %-7s %-13s %s %s\n", i18n.T("score"), tablemodel.PresetName(sc.Preset), stats.Sparkline(scores, sparkWidth),
			i18n.T("%.0f to %.0f", slices.Min(scores), slices.Max(scores)))
	}
}
