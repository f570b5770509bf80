package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
)

func init() {
	register(command{name: "sim", summary: i18n.Mark("play whole matches in one process, full cryptography, every seat a peer"), run: runSim})
}

const simUsage = `usage: okey sim [--players N] [--games G] [--preset P[:options]] [--bots greedy,random,...]
                [--faults drop=0.05,dup=0.05,reorder=0.1,delay=5ms] [--out DIR] [--seed S]
                [--cheat KIND --cheater SEAT]

Plays G matches of N seats over an in-memory network with faults, each seat a
separate peer with its own keys; writes one transcript per match into DIR and
prints a summary. With --cheat one seat breaks the protocol; the command exits
0 when every honest peer named that seat and verify names it too (for
withhold: when every honest peer and verify say the match stopped waiting for
that seat, naming no one, since silence is never proof).
`

func runSim(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, i18n.T(simUsage)); printDefaults(fs) }
	players := fs.Int("players", 4, i18n.T("seats at the table (2-4)"))
	games := fs.Int("games", 1, i18n.T("matches to play"))
	preset := fs.String("preset", "classic", i18n.T("ruleset: preset[:options]"))
	bots := fs.String("bots", "greedy", i18n.T("strategies by seat, the list repeating over the seats (%s; Okey 101: %s, which greedy means there)", strings.Join(bot.Names(), ", "), bot.Name101))
	faults := fs.String("faults", "", i18n.T("network faults: drop=P,dup=P,reorder=P,delay=D"))
	out := fs.String("out", "", i18n.T("directory for the transcripts"))
	seed := fs.Uint64("seed", 0, i18n.T("seed for keys, bots and faults (0: random)"))
	keySeed := fs.Uint64("keys", 0, i18n.T("seed for the seats' keys, the same in every match (0: each match its own)"))
	cheat := fs.String("cheat", "", i18n.T("a cheat for one seat: %s", cheatNames()))
	cheater := fs.Int("cheater", 1, i18n.T("the cheating seat"))
	stall := fs.Duration("stall", 100*time.Millisecond, i18n.T("wait without progress before asking the others again (in memory, asking is cheap)"))
	withhold := fs.Duration("withhold", 30*time.Second, i18n.T("wait without progress before giving up on a silent seat (silence names no one)"))
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprint(stderr, i18n.T("okey: sim takes no arguments, got %q\n", fs.Arg(0)))
		return 2
	}
	if *games < 1 {
		fmt.Fprint(stderr, i18n.T("okey: --games %d: want 1 or more matches\n", *games))
		return 2
	}
	if *stall <= 0 {
		fmt.Fprint(stderr, i18n.T("okey: --stall %v: want a positive duration\n", *stall))
		return 2
	}
	rules, err := engine.ParseRuleset(*preset)
	if err != nil {
		fmt.Fprintf(stderr, "okey: %s\n", ui.Plain(err))
		return 2
	}
	if err := rules.CheckPlayers(*players); err != nil {
		fmt.Fprintf(stderr, "okey: %s\n", ui.Plain(err))
		return 2
	}
	f, err := parseFaults(*faults)
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: --faults: %s\n", ui.Plain(err)))
		return 2
	}
	names := strings.Split(*bots, ",")
	if len(names) > *players {
		fmt.Fprint(stderr, i18n.T("okey: --bots names %d strategies for %d seats\n", len(names), *players))
		return 2
	}
	is101 := rules.Preset == engine.Preset101
	for _, name := range names {
		if _, err := simMover(name, 0, is101); err != nil {
			fmt.Fprint(stderr, i18n.T("okey: --bots: %s\n", ui.Plain(err)))
			return 2
		}
	}
	var c table.Cheat
	if *cheat != "" {
		if c, err = table.ParseCheat(*cheat); err != nil {
			fmt.Fprintf(stderr, "okey: %s\n", ui.Plain(err))
			return 2
		}
		if c.Only101() && !is101 {
			fmt.Fprint(stderr, i18n.T("okey: --cheat %s is a cheat of Okey 101 (--preset 101)\n", c))
			return 2
		}
		if is101 && (c == table.CheatFalseWin || c == table.CheatPhantomDiscard) {
			fmt.Fprint(stderr, i18n.T("okey: --cheat %s is a classic move; Okey 101's moves have their own cheats (%s)\n", c, cheat101Names()))
			return 2
		}
		if *cheater < 0 || *cheater >= *players {
			fmt.Fprint(stderr, i18n.T("okey: --cheater must be a seat 0..%d\n", *players-1))
			return 2
		}
	}
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			fmt.Fprintf(stderr, "okey: %s\n", ui.Plain(err))
			return 2
		}
	}
	var st simStats
	st.kinds = map[string]int{}
	caught := true
	for g := 0; g < *games; g++ {
		var ms []table.Mover
		for i := 0; i < *players; i++ {
			name := names[i%len(names)] // the list repeats over the seats
			s, err := simMover(name, *seed+uint64(g*8+i), is101)
			if err != nil {
				fmt.Fprintf(stderr, "okey: %s\n", ui.Plain(err))
				return 2
			}
			ms = append(ms, s)
		}
		gseed := uint64(0)
		if *seed != 0 {
			gseed = *seed + uint64(g)
		}
		var replay [][]byte
		if c == table.CheatReplay {
			// An earlier match of the same table (same id and roster: the
			// same seed), whose honest seat's messages the cheater replays.
			if gseed == 0 {
				gseed = 1 + uint64(g)
			}
			earlier, err := table.RunLocal(context.Background(), table.LocalOptions{Ruleset: rules.String(), Movers: ms,
				Seed: gseed, KeySeed: *keySeed, Stall: *stall, Withhold: *withhold})
			if err != nil {
				fmt.Fprint(stderr, i18n.T("okey: match %d: the earlier match: %v\n", g, err))
				return 1
			}
			victim := (*cheater + 1) % *players
			for _, raw := range earlier.Peers[victim].Chain() {
				if env, err := table.DecodeEnvelope(raw); err == nil && int(env.Seat) == victim {
					replay = append(replay, raw)
				}
			}
			for i := range ms {
				if ms[i], err = simMover(names[i%len(names)], *seed+uint64(g*8+i), is101); err != nil {
					fmt.Fprintf(stderr, "okey: %v\n", err)
					return 2
				}
			}
		}
		res, err := table.RunLocal(context.Background(), table.LocalOptions{Ruleset: rules.String(), Movers: ms,
			Faults: f, Seed: gseed, KeySeed: *keySeed, Cheat: c, Cheater: *cheater, Stall: *stall, Withhold: *withhold, Replay: replay})
		if err != nil {
			fmt.Fprint(stderr, i18n.T("okey: match %d: %v\n", g, err))
			return 1
		}
		cheaterSeat := -1
		if c != "" {
			cheaterSeat = *cheater
		}
		tr := res.Transcript(cheaterSeat)
		if *out != "" {
			path := filepath.Join(*out, fmt.Sprintf("match-%03d.okey", g))
			if err := writeTranscriptFile(path, tr); err != nil {
				fmt.Fprintf(stderr, "okey: %s\n", ui.Plain(err))
				return 1
			}
			fmt.Fprint(stdout, i18n.T("match %d: transcript %s\n", g, path))
		}
		rep := table.Verify(tr)
		if c == table.CheatReplay {
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
				fmt.Fprint(stdout, i18n.T("match %d: %d replayed messages from an earlier match of the table were ignored; verified honest, no one named\n", g, len(replay)))
			}
			continue
		}
		if c == table.CheatWithhold {
			// Silence is never proof: the others say who stopped answering,
			// and the transcript is unfinished, with no one named.
			for seat, r := range res.Results {
				if seat == *cheater {
					continue
				}
				if r.Violation != nil || r.Stalled == nil || r.Stalled.Seat != *cheater {
					caught = false
					fmt.Fprint(stdout, i18n.T("match %d: seat %d did not see seat %d stop: %v %v\n", g, seat, *cheater, r.Violation, r.Stalled))
				} else {
					fmt.Fprint(stdout, i18n.T("match %d: seat %d: %v (no one named)\n", g, seat, r.Stalled))
				}
			}
			if rep.Status() != table.StatusUnfinished || rep.Next == nil || rep.Next.Seat != *cheater {
				caught = false
				fmt.Fprint(stdout, i18n.T("match %d: verify: %v, want unfinished waiting for seat %d\n", g, rep.Status(), *cheater))
			} else {
				fmt.Fprint(stdout, i18n.T("match %d: verify: unfinished, honest so far, waiting for seat %d\n", g, rep.Next.Seat))
			}
			continue
		}
		if c != "" {
			for seat, r := range res.Results {
				if seat == *cheater {
					continue
				}
				if r.Violation == nil || r.Violation.Seat != *cheater {
					caught = false
					fmt.Fprint(stdout, i18n.T("match %d: seat %d did not name seat %d: %v\n", g, seat, *cheater, r.Violation))
				} else {
					fmt.Fprint(stdout, i18n.T("match %d: seat %d names seat %d: %s: %v\n", g, seat, r.Violation.Seat, r.Violation.Rule, r.Violation.Err))
				}
			}
			if rep.Honest || rep.Violation == nil || rep.Violation.Seat != *cheater {
				caught = false
				fmt.Fprint(stdout, i18n.T("match %d: verify did not name seat %d\n", g, *cheater))
			} else {
				fmt.Fprint(stdout, i18n.T("match %d: verify names seat %d: %s\n", g, rep.Violation.Seat, rep.Violation.Rule))
			}
			continue
		}
		if !rep.Honest {
			fmt.Fprint(stderr, i18n.T("okey: match %d: an honest match failed verification: %v %v\n", g, rep.Violation, rep.Invalid))
			return 1
		}
		st.add(res)
	}
	if c != "" {
		if !caught {
			return 1
		}
		return 0
	}
	st.print(stdout, *games)
	return 0
}

func cheatNames() string {
	var s []string
	for _, c := range table.Cheats {
		s = append(s, string(c))
	}
	return strings.Join(s, ", ") + "; Okey 101 only: " + cheat101Names()
}

func cheat101Names() string {
	var s []string
	for _, c := range table.Cheats101 {
		s = append(s, string(c))
	}
	return strings.Join(s, ", ")
}

// simMover returns the strategy called name for a seat; at an Okey 101
// table the one 101 bot (b101; greedy, the default, means it there).
func simMover(name string, seed uint64, is101 bool) (table.Mover, error) {
	if is101 {
		if name != bot.Name101 && name != "greedy" {
			return nil, fmt.Errorf("bot: Okey 101 is played by %s only, not %q", bot.Name101, name)
		}
		return bot.NewB101(), nil
	}
	return bot.New(name, seed)
}

func parseFaults(s string) (table.Faults, error) {
	var f table.Faults
	if s == "" {
		return f, nil
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return f, fmt.Errorf("%q is not name=value", kv)
		}
		if k == "delay" {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 || d > time.Second {
				return f, fmt.Errorf("bad delay %q", v)
			}
			f.Delay = d
			continue
		}
		p, err := strconv.ParseFloat(v, 64)
		if err != nil || p < 0 || p > 0.5 {
			return f, fmt.Errorf("bad probability %q (0..0.5)", kv)
		}
		switch k {
		case "drop":
			f.Drop = p
		case "dup":
			f.Dup = p
		case "reorder":
			f.Reorder = p
		default:
			return f, fmt.Errorf("unknown fault %q (drop, dup, reorder, delay)", k)
		}
	}
	return f, nil
}

func writeTranscriptFile(path string, t *table.Transcript) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := table.WriteTranscript(f, t); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

type simStats struct {
	hands, stalemates int
	kinds             map[string]int
	elapsed           time.Duration
	crypto            time.Duration
	is101             bool
}

func (s *simStats) add(res *table.LocalResult) {
	s.elapsed += res.Elapsed
	for _, p := range res.Peers {
		s.crypto += p.CryptoTime() / time.Duration(len(res.Peers))
	}
	for _, h := range res.Results[0].Machine.Hands() {
		s.hands++
		if r := h.Result101; r != nil {
			switch {
			case r.End == engine.EndCancelled:
				s.kinds["cancelled"]++
			case r.End == engine.EndExhausted:
				s.stalemates++
			case r.JokerFinish:
				s.kinds["okey finish"]++
			default:
				s.kinds["finish"]++
			}
			s.kinds["penalties"] += len(r.Penalties)
			s.is101 = true
			continue
		}
		r := h.Result
		switch {
		case r.Winner < 0:
			s.stalemates++
		case r.Kind == engine.Pairs:
			s.kinds["seven pairs"]++
		case r.OkeyDiscard:
			s.kinds["okey discard"]++
		default:
			s.kinds["groups"]++
		}
	}
}

func (s *simStats) print(w io.Writer, games int) {
	if s.is101 {
		fmt.Fprint(w, i18n.T("matches: %d, rounds: %d, bank exhausted: %d, cancelled (all doubles): %d\n", games, s.hands, s.stalemates, s.kinds["cancelled"]))
		fmt.Fprint(w, i18n.T("finishes: %d, with an okey %d; penalties: %d\n", s.kinds["finish"]+s.kinds["okey finish"], s.kinds["okey finish"], s.kinds["penalties"]))
	} else {
		fmt.Fprint(w, i18n.T("matches: %d, hands: %d, stalemates: %d\n", games, s.hands, s.stalemates))
		fmt.Fprint(w, i18n.T("wins: groups %d, seven pairs %d, okey discard %d\n", s.kinds["groups"], s.kinds["seven pairs"], s.kinds["okey discard"]))
	}
	if s.hands > 0 {
		per := s.elapsed / time.Duration(s.hands)
		fmt.Fprint(w, i18n.T("time per hand: %v (cryptography %v a peer, %.0f%%)\n", per.Round(time.Millisecond),
			(s.crypto/time.Duration(s.hands)).Round(time.Millisecond), 100*float64(s.crypto)/float64(s.elapsed)))
	}
	fmt.Fprintln(w, i18n.T("every transcript verified: yes"))
}

func readTranscriptFile(path string) (*table.Transcript, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return table.ReadTranscript(f)
}
