package page

import (
	"bytes"
	"strings"

	"github.com/okey-game/okey/chat"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui/tablemodel"
	"github.com/okey-game/okey/verdict"
)

// Verdict is what the page shows of a file's verdict: okey verify's line
// (Text, in the page's language) and its --json line (JSON, English).
type Verdict struct {
	Text   string `json:"text"`
	JSON   string `json:"json"`
	Status int    `json:"status"`
}

// Check is the verdict on a transcript file's bytes named name, in lang
// ("en" or "tr"; anything else is English), exactly as okey verify prints it
// for a file of those bytes: a table's chat file is skipped as okey verify
// skips it (protocol.md 7.13). The page's WebAssembly calls it.
func Check(name string, data []byte, lang string) Verdict {
	setLang(lang)
	var r verdict.Result
	if bytes.HasPrefix(data, []byte(chat.FileMagic)) {
		r = verdict.Result{File: name, Skipped: "chat", Verdict: "skipped"}
	} else {
		r = verdict.Bytes(name, data)
	}
	return Verdict{Text: r.Text(), JSON: r.JSON(), Status: r.Status}
}

func setLang(lang string) {
	tag, err := i18n.Parse(lang)
	if err != nil {
		tag = i18n.English
	}
	i18n.Set(tag)
}

// Replay is a transcript laid out for the page: every message of its chain
// by seat and kind, with what it did at the table where it did something (the
// terminal replay's log lines), and each hand's end with its scores.
type Replay struct {
	Ruleset  string    `json:"ruleset"`
	Seats    []string  `json:"seats"`
	Messages []Message `json:"messages"`
	Hands    []Hand    `json:"hands"`
	// Stop says why the messages stop before the chain's end, if they do
	// (a record that does not decode or apply).
	Stop string `json:"stop,omitempty"`
}

// Message is one signed message of the chain.
type Message struct {
	Step int    `json:"step"`
	Hand int    `json:"hand"` // counted from 1, as the table says it (the envelope's Hand + 1)
	Seat int    `json:"seat"`
	Kind string `json:"kind"`
	Says string `json:"says,omitempty"` // what it did at the table, if anything (one line per event)
}

// Hand is a hand's end: the winner (if any), each seat's points in the
// hand and the match's totals after it, and each seat's rack as it ended
// (opened by the hand's audit).
type Hand struct {
	Hand   int        `json:"hand"` // counted from 1, as the table says it
	Winner string     `json:"winner,omitempty"`
	Deltas []int      `json:"deltas"`
	Scores []int      `json:"scores"`
	Racks  [][]string `json:"racks,omitempty"`
}

// ReplayOf lays out a transcript file's bytes in lang, from the same code
// as okey replay (tablemodel.LoadReplay). A file that is no transcript gives an
// empty Replay with Stop saying why.
func ReplayOf(data []byte, lang string) Replay {
	setLang(lang)
	out := Replay{Messages: []Message{}, Hands: []Hand{}}
	t, _, err := verdict.Parse(data)
	if err != nil {
		out.Stop = verdict.LocalErr(err)
		return out
	}
	out.Ruleset = tablemodel.RulesetName(t.Config.Ruleset)
	for _, s := range t.Config.Seats {
		out.Seats = append(out.Seats, s.Name)
	}
	says := map[int]string{}
	if r, err := tablemodel.LoadReplay(t); err == nil {
		tiles := map[int][]int{} // hand -> slot -> tile, from each hand's audit
		for _, h := range r.Report.Hands {
			tiles[int(h.Hand)] = h.Tiles
		}
		for _, f := range r.Frames {
			var lines []string
			for _, l := range f.Lines {
				lines = append(lines, l.String())
			}
			says[f.Step] = strings.Join(lines, "\n")
			if e := f.End; e != nil {
				h := Hand{Hand: int(e.Hand) + 1, Winner: e.Winner, Deltas: e.Deltas, Scores: e.Scores}
				if ts := tiles[int(e.Hand)]; ts != nil {
					for _, rack := range e.Racks {
						faces := []string{}
						for _, s := range rack {
							if int(s) < len(ts) {
								faces = append(faces, engine.Tile(ts[s]).Face().String())
							}
						}
						h.Racks = append(h.Racks, faces)
					}
				}
				out.Hands = append(out.Hands, h)
			}
		}
	}
	for i, raw := range t.Chain {
		env, err := table.DecodeEnvelope(raw)
		if err != nil {
			out.Stop = i18n.T("message %d does not decode: %s", i, tablemodel.Explain(err))
			break
		}
		out.Messages = append(out.Messages, Message{Step: int(env.Step), Hand: int(env.Hand) + 1, Seat: int(env.Seat), Kind: tablemodel.KindName(env.Kind), Says: says[i]})
	}
	return out
}
