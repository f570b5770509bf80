package analysis

import (
	"fmt"
	"io"
	"strings"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// Report writes an analysis for a person, in the interface's language:
// what okey analyze prints without --json. res is Analyze's, made with
// report (*Hand14, *Hand15), or Analyze101's (*Opening101). An okey in a
// group is written as the face it stands for with a star ("K13*"), and a
// legend line says what each stands for.
func Report(w io.Writer, res any) {
	switch r := res.(type) {
	case *Hand14:
		fmt.Fprint(w, i18n.T("indicator %s, okey %s\n", r.Indicator, r.Okey))
		fmt.Fprint(w, i18n.T("tiles:    %s\n", strings.Join(r.Tiles, " ")))
		marked, legend := markOkeys(r.OkeyFace, r.Layout)
		if r.Winning {
			fmt.Fprint(w, i18n.T("winning:  %s\n", kindName(*r.Kind)))
		} else {
			fmt.Fprint(w, i18n.T("not winning: %d to exchange, at the fewest\n", r.Distance))
		}
		for _, g := range marked {
			fmt.Fprintf(w, "  %s\n", g)
		}
		if !r.Winning {
			fmt.Fprint(w, i18n.T("  rest: %s\n", engine.FormatFaces(r.Rest)))
		}
		for _, l := range legend {
			fmt.Fprintf(w, "  %s\n", l)
		}
	case *Hand15:
		fmt.Fprint(w, i18n.T("indicator %s, okey %s\n", r.Indicator, r.Okey))
		fmt.Fprint(w, i18n.T("tiles:    %s\n", strings.Join(r.Tiles, " ")))
		if len(r.WinningDiscards) == 0 {
			fmt.Fprintln(w, i18n.T("no discard leaves a winning hand"))
			fmt.Fprint(w, i18n.T("best discards: %s (then %d to exchange)\n", strings.Join(r.Best, " "), r.BestDist))
			return
		}
		fmt.Fprint(w, i18n.T("winning discards: %s\n", strings.Join(r.WinningDiscards, " ")))
	case *Opening101:
		report101(w, r)
	}
}

// report101 writes an Okey 101 rack's best opening.
func report101(w io.Writer, res *Opening101) {
	fmt.Fprint(w, i18n.T("indicator %s, okey %s (Okey 101)\n", res.Indicator, res.Okey))
	fmt.Fprint(w, i18n.T("tiles:    %s\n", strings.Join(res.Tiles, " ")))
	if res.Taken != "" {
		fmt.Fprint(w, i18n.T("using:    %s (taken)\n", res.Taken))
	}
	verdict := func(ok bool) string {
		if ok {
			return i18n.T("opens")
		}
		return i18n.T("does not open")
	}
	// An okey, OKEY=FACE in JSON, is written FACE* with a legend line.
	groups := func(gs [][]string) {
		var legend []string
		for _, g := range gs {
			ts := make([]string, len(g))
			for i, tok := range g {
				ts[i] = tok
				if own, as, ok := strings.Cut(tok, "="); ok {
					ts[i] = as + "*"
					legend = append(legend, i18n.T("* okey (%s) stands for %s", own, as))
				}
			}
			fmt.Fprintf(w, "  %s\n", strings.Join(ts, " "))
		}
		for _, l := range legend {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	fmt.Fprint(w, i18n.T("sets and runs: %d points, %s (101 needed)\n", res.Value, verdict(res.Reaches101)))
	groups(res.Groups)
	fmt.Fprint(w, i18n.T("doubles: %d, %s (5 needed)\n", res.Doubles, verdict(res.FiveDoubles)))
	groups(res.Pairs)
}

// markOkeys writes groups for the report: an okey as the face it stands
// for with a star ("K13*"), and for each okey a legend line saying what
// it stands for ("* okey (R5) stands for K13").
func markOkeys(okey engine.Face, groups []engine.Group) (lines, legend []string) {
	for _, g := range groups {
		var ts []string
		for i, f := range g.Tiles {
			if f != okey || i >= len(g.As) {
				ts = append(ts, f.String())
				continue
			}
			ts = append(ts, g.As[i].String()+"*")
			if g.As[i] == okey {
				legend = append(legend, i18n.T("* okey (%s) plays as itself", okey))
			} else {
				legend = append(legend, i18n.T("* okey (%s) stands for %s", okey, g.As[i]))
			}
		}
		lines = append(lines, strings.Join(ts, " "))
	}
	return lines, legend
}

// kindName is a winning hand's kind for the report.
func kindName(kind string) string {
	switch kind {
	case "groups":
		return i18n.T("groups")
	case "pairs":
		return i18n.T("seven pairs")
	}
	return kind
}
