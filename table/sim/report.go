package sim

import (
	"fmt"
	"io"
	"time"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
)

// Caught writes what the honest seats and verify found of the cheat of
// match g (the g-th of c), for a person, and says whether it is what they
// must find: every honest seat names the cheater on its signed messages
// and verify names it too; for a replay, that the match finished honestly
// with no one named; for withholding, that every honest seat and verify
// say the match stopped waiting for the cheater, naming no one (silence
// is never proof).
func (m *Match) Caught(stdout io.Writer, g int, cfg Config) bool {
	res, rep, cheater := m.Result, m.Report, cfg.Cheater
	caught := true
	switch cfg.Cheat {
	case table.CheatReplay:
		// Replayed messages of another match verify nowhere: the match
		// finishes honestly and no one is named.
		for seat, r := range res.Results {
			if r.Ended() != nil || !r.Machine.Done() {
				caught = false
				fmt.Fprint(stdout, i18n.T("match %d: seat %d did not finish: %v\n", g, seat, r.Ended()))
			}
		}
		if !rep.Honest {
			caught = false
			fmt.Fprint(stdout, i18n.T("match %d: verify: %v, want honest\n", g, rep.Status()))
		} else {
			fmt.Fprint(stdout, i18n.T("match %d: %d replayed messages from an earlier match of the table were ignored; verified honest, no one named\n", g, m.Replayed))
		}
	case table.CheatWithhold:
		// Silence is never proof: the others say who stopped answering,
		// and the transcript is unfinished, with no one named.
		for seat, r := range res.Results {
			if seat == cheater {
				continue
			}
			if r.Violation != nil || r.Stalled == nil || r.Stalled.Seat != cheater {
				caught = false
				fmt.Fprint(stdout, i18n.T("match %d: seat %d did not see seat %d stop: %v %v\n", g, seat, cheater, r.Violation, r.Stalled))
			} else {
				fmt.Fprint(stdout, i18n.T("match %d: seat %d: %v (no one named)\n", g, seat, r.Stalled))
			}
		}
		if rep.Status() != table.StatusUnfinished || rep.Next == nil || rep.Next.Seat != cheater {
			caught = false
			fmt.Fprint(stdout, i18n.T("match %d: verify: %v, want unfinished waiting for seat %d\n", g, rep.Status(), cheater))
		} else {
			fmt.Fprint(stdout, i18n.T("match %d: verify: unfinished, honest so far, waiting for seat %d\n", g, rep.Next.Seat))
		}
	default:
		for seat, r := range res.Results {
			if seat == cheater {
				continue
			}
			if r.Violation == nil || r.Violation.Seat != cheater {
				caught = false
				fmt.Fprint(stdout, i18n.T("match %d: seat %d did not name seat %d: %v\n", g, seat, cheater, r.Violation))
			} else {
				fmt.Fprint(stdout, i18n.T("match %d: seat %d names seat %d: %s: %v\n", g, seat, r.Violation.Seat, r.Violation.Rule, r.Violation.Err))
			}
		}
		if rep.Honest || rep.Violation == nil || rep.Violation.Seat != cheater {
			caught = false
			fmt.Fprint(stdout, i18n.T("match %d: verify did not name seat %d\n", g, cheater))
		} else {
			fmt.Fprint(stdout, i18n.T("match %d: verify names seat %d: %s\n", g, rep.Violation.Seat, rep.Violation.Rule))
		}
	}
	return caught
}

// WriteText writes the figures of games honest matches for a person.
func (s *Stats) WriteText(w io.Writer, games int) {
	if s.Is101 {
		fmt.Fprint(w, i18n.T("matches: %d, rounds: %d, bank exhausted: %d, cancelled (all doubles): %d\n", games, s.Hands, s.Stalemates, s.Kinds["cancelled"]))
		fmt.Fprint(w, i18n.T("finishes: %d, with an okey %d; penalties: %d\n", s.Kinds["finish"]+s.Kinds["okey finish"], s.Kinds["okey finish"], s.Kinds["penalties"]))
	} else {
		fmt.Fprint(w, i18n.T("matches: %d, hands: %d, stalemates: %d\n", games, s.Hands, s.Stalemates))
		fmt.Fprint(w, i18n.T("wins: groups %d, seven pairs %d, okey discard %d\n", s.Kinds["groups"], s.Kinds["seven pairs"], s.Kinds["okey discard"]))
	}
	if s.Hands > 0 {
		per := s.Elapsed / time.Duration(s.Hands)
		fmt.Fprint(w, i18n.T("time per hand: %v (cryptography %v a peer, %.0f%%)\n", per.Round(time.Millisecond),
			(s.Crypto/time.Duration(s.Hands)).Round(time.Millisecond), 100*float64(s.Crypto)/float64(s.Elapsed)))
	}
	fmt.Fprintln(w, i18n.T("every transcript verified: yes"))
}
