package main

import (
	"crypto/sha256"
	"errors"
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
)

func init() {
	register(command{name: "train", summary: i18n.Mark("train the learned player's net from self-play (developers)"), run: runTrain})
}

const trainUsage = `usage: okey train [--iterations K] [--hands N] [--epochs E] [--seed S] [--explore X]
                  [--imitate STRATEGY] [--hidden H] [--checkpoint DIR] [--out FILE]
                  [--eval H] [--workers W]

Trains the learned player's net (bot.Learned) from play with the rules
engine alone (classic, four players).

By returns (Deep Monte-Carlo, the default): iteration 0 plays N hands of
four greedy bots; each seat's discard is a random one with chance X, and
the state each random discard leaves is recorded, labelled with the hand's
outcome for that seat (won, and the score change): the returns of random
actions value every action alike, where the policy's own choices would
teach the net what goes with that policy's good hands. A fresh net is
fitted to them for E epochs. Each later iteration plays N hands of one
learned seat against three greedy and N hands of four learned seats with
the current net, records its random discards the same way, and fits the
net again to that fresh data.

By imitation (--imitate STRATEGY, e.g. expert): iteration 0 plays N hands
of STRATEGY against three greedy; at each of its discards with two or more
of the learned player's candidates, every candidate's state is recorded,
labelled 1 for the one STRATEGY chose and 0 for the others, and the net is
fitted to rank them so. Each later iteration plays N hands of the learned
player against three greedy and labels its positions by STRATEGY's choice
(DAgger). A net made so ranks discards only: its player takes the previous
discard only when that brings the hand closer to a win.

After each iteration the net is written to DIR/iter-K.net; a run given the
same DIR resumes after the last iteration written there (the same flags
give the same weights as an unbroken run). With --eval H each iteration
also plays H hands of the net against three greedy and prints its win
share with a 95%% interval clustered by deal: the learning curve.

At the end the net goes to FILE with FILE.txt beside it: the command, the
seed and the SHA-256 the player checks when it loads the weights. The
committed net (bot/learned.net) was made by the command in bot/learned.net.txt.
`

func runTrain(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, i18n.T(trainUsage)); printDefaults(fs) }
	iters := fs.Int("iterations", 3, i18n.T("self-play iterations (the first with greedy bots)"))
	hands := fs.Int("hands", 2000, i18n.T("hands of self-play an iteration"))
	epochs := fs.Int("epochs", 4, i18n.T("passes over each iteration's data"))
	seed := fs.Uint64("seed", 1, i18n.T("seed for the deals, the initial weights and the sample order"))
	ckpt := fs.String("checkpoint", "", i18n.T("directory for a net after each iteration (resume from it)"))
	out := fs.String("out", "learned.net", i18n.T("file for the trained net"))
	eval := fs.Int("eval", 0, i18n.T("hands against three greedy after each iteration (0: none)"))
	workers := fs.Int("workers", 0, i18n.T("goroutines (0: one per core)"))
	eps := fs.Float64("explore", 0.2, i18n.T("share of random discards in self-play (only their states are recorded)"))
	imitate := fs.String("imitate", "", i18n.T("fit the net to rank discards as this strategy does (imitation), not to returns"))
	hidden := fs.Int("hidden", 32, i18n.T("units in the net's first hidden layer (the second has half)"))
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprint(stderr, i18n.T("okey: train takes no arguments, got %q\n", fs.Arg(0)))
		return 2
	}
	if *iters < 1 || *hands < 4 || *epochs < 1 || *eval < 0 || *workers < 0 || *eps <= 0 || *eps > 1 {
		fmt.Fprintln(stderr, i18n.T("okey: train: want --iterations 1 or more, --hands 4 or more, --epochs 1 or more, --explore above 0 and at most 1"))
		return 2
	}
	if *imitate != "" {
		if _, err := bot.New(*imitate, 0); err != nil || *imitate == bot.LearnedName {
			fmt.Fprint(stderr, i18n.T("okey: train: --imitate wants a strategy other than learned, got %q\n", *imitate))
			return 2
		}
	}
	if *hidden < 2 || *hidden > 256 {
		fmt.Fprintln(stderr, i18n.T("okey: train: want --hidden from 2 to 256"))
		return 2
	}
	rules := engine.MustRuleset("classic", "")
	var net *bot.Net
	start := 0
	if *ckpt != "" {
		if err := os.MkdirAll(*ckpt, 0o755); err != nil {
			fmt.Fprint(stderr, i18n.T("okey: train: %v\n", err))
			return 2
		}
		for k := *iters - 1; k >= 0; k-- {
			data, err := os.ReadFile(filepath.Join(*ckpt, "iter-"+strconv.Itoa(k)+".net"))
			if err != nil {
				continue
			}
			net = &bot.Net{}
			if err := net.UnmarshalBinary(data); err != nil {
				fmt.Fprint(stderr, i18n.T("okey: train: checkpoint %d: %v\n", k, err))
				return 2
			}
			start = k + 1
			fmt.Fprint(stdout, i18n.T("resuming after iteration %d from %s\n", k, *ckpt))
			break
		}
	}
	t0 := time.Now()
	for k := start; k < *iters; k++ {
		ti := time.Now()
		s := *seed*1000 + uint64(k)
		var samples []bot.Sample
		var err error
		if k == 0 {
			net = bot.NewNet(bot.NetInputs, *hidden, *hidden/2, *seed)
		}
		switch {
		case *imitate != "" && k == 0:
			samples, err = bot.SelfPlay(bot.SelfPlayConfig{Rules: rules, Bots: []string{*imitate, "greedy", "greedy", "greedy"},
				Record: []string{*imitate}, Imitate: true, Hands: *hands, Seed: s, Workers: *workers})
		case *imitate != "":
			samples, err = bot.SelfPlay(bot.SelfPlayConfig{Rules: rules, Bots: []string{bot.LearnedName, "greedy", "greedy", "greedy"},
				Record: []string{bot.LearnedName}, Net: net, Imitate: true, Teacher: *imitate, Hands: *hands, Seed: s, Workers: *workers})
		case k == 0:
			samples, err = bot.SelfPlay(bot.SelfPlayConfig{Rules: rules, Bots: []string{"greedy", "greedy", "greedy", "greedy"},
				Record: []string{"greedy"}, Epsilon: *eps, OnlyExplored: true, Hands: *hands, Seed: s, Workers: *workers})
		default:
			samples, err = bot.SelfPlay(bot.SelfPlayConfig{Rules: rules, Bots: []string{bot.LearnedName, "greedy", "greedy", "greedy"},
				Record: []string{bot.LearnedName}, Net: net, Epsilon: *eps, OnlyExplored: true, Hands: *hands, Seed: s, Workers: *workers})
			if err == nil {
				var more []bot.Sample
				more, err = bot.SelfPlay(bot.SelfPlayConfig{Rules: rules, Bots: []string{bot.LearnedName, bot.LearnedName, bot.LearnedName, bot.LearnedName},
					Record: []string{bot.LearnedName}, Net: net, Epsilon: *eps, OnlyExplored: true, Hands: *hands, Seed: s + 500, Workers: *workers})
				samples = append(samples, more...)
			}
		}
		if err != nil {
			fmt.Fprint(stderr, i18n.T("okey: train: %v\n", err))
			return 2
		}
		tp := time.Since(ti)
		losses := net.Train(samples, bot.TrainConfig{Epochs: *epochs, Seed: s})
		fmt.Fprint(stdout, i18n.T("iteration %d: %d samples from self-play in %s, loss by epoch %s, %s in all\n",
			k, len(samples), tp.Round(time.Second), fmtLosses(losses), time.Since(ti).Round(time.Second)))
		if *ckpt != "" {
			data, _ := net.MarshalBinary()
			if err := writeFileAtomic(filepath.Join(*ckpt, "iter-"+strconv.Itoa(k)+".net"), data); err != nil {
				fmt.Fprint(stderr, i18n.T("okey: train: %v\n", err))
				return 2
			}
		}
		if *eval > 0 {
			n := net
			res, err := bot.Arena(bot.ArenaConfig{Rules: rules, Bots: []string{bot.LearnedName, "greedy", "greedy", "greedy"},
				Hands: *eval, Seed: *seed, Workers: *workers, Make: func(name string, seed uint64) (bot.Strategy, error) {
					if name == bot.LearnedName && *imitate != "" {
						return bot.NewLearnedImitation(n, seed), nil
					}
					if name == bot.LearnedName {
						return bot.NewLearnedNet(n, seed), nil
					}
					return bot.New(name, seed)
				}})
			if err != nil {
				fmt.Fprint(stderr, i18n.T("okey: train: %v\n", err))
				return 2
			}
			sh := res.ShareByDeal(res.Stats[0])
			fmt.Fprint(stdout, i18n.T("iteration %d: against three greedy %.1f%% [%.1f-%.1f] of %d hands (%d deals)\n",
				k, 100*sh.Est, 100*sh.Lo, 100*sh.Hi, res.Hands, res.Deals()))
		}
	}
	data, _ := net.MarshalBinary()
	if err := writeFileAtomic(*out, data); err != nil {
		fmt.Fprint(stderr, i18n.T("okey: train: %v\n", err))
		return 2
	}
	sum := sha256.Sum256(data)
	cmd := fmt.Sprintf("okey train --iterations %d --hands %d --epochs %d --explore %g --seed %d", *iters, *hands, *epochs, *eps, *seed)
	if *imitate != "" {
		cmd += " --imitate " + *imitate
	}
	if *hidden != 32 {
		cmd += fmt.Sprintf(" --hidden %d", *hidden)
	}
	note := fmt.Sprintf("%s\nseed %d\nsha256 %x\nbytes %d\n", cmd, *seed, sum, len(data))
	if err := writeFileAtomic(*out+".txt", []byte(note)); err != nil {
		fmt.Fprint(stderr, i18n.T("okey: train: %v\n", err))
		return 2
	}
	fmt.Fprint(stdout, i18n.T("wrote %s (%d bytes, sha256 %x) in %s\n", *out, len(data), sum, time.Since(t0).Round(time.Second)))
	return 0
}

func fmtLosses(ls []float64) string {
	s := make([]string, len(ls))
	for i, l := range ls {
		s[i] = strconv.FormatFloat(l, 'f', 4, 64)
	}
	return strings.Join(s, " ")
}

// writeFileAtomic writes data to a temporary file beside name and renames
// it, so a stopped run never leaves a cut file.
func writeFileAtomic(name string, data []byte) error {
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}
