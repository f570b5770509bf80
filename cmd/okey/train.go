package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/bot/train"
	"github.com/okey-game/okey/internal/i18n"
)

func init() {
	register(command{name: "train", summary: i18n.Mark("train the learned player's net from self-play (developers)"), run: runTrain})
}

func runTrain(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, helpText("train")); printDefaults(fs) }
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
	c := train.Config{Iterations: *iters, Hands: *hands, Epochs: *epochs, Seed: *seed, Checkpoint: *ckpt, Eval: *eval, Workers: *workers,
		Explore: *eps, Imitate: *imitate, Hidden: *hidden}
	t0 := time.Now()
	net, err := train.Run(c, train.Events{
		Resumed: func(k int) { fmt.Fprint(stdout, i18n.T("resuming after iteration %d from %s\n", k, *ckpt)) },
		Trained: func(k, samples int, selfPlay time.Duration, losses []float64, took time.Duration) {
			fmt.Fprint(stdout, i18n.T("iteration %d: %d samples from self-play in %s, loss by epoch %s, %s in all\n",
				k, samples, selfPlay.Round(time.Second), fmtLosses(losses), took.Round(time.Second)))
		},
		Evaluated: func(k int, sh bot.Interval, hands, deals int) {
			fmt.Fprint(stdout, i18n.T("iteration %d: against three greedy %.1f%% [%.1f-%.1f] of %d hands (%d deals)\n",
				k, 100*sh.Est, 100*sh.Lo, 100*sh.Hi, hands, deals))
		}})
	var ce *train.CheckpointError
	if errors.As(err, &ce) {
		fmt.Fprint(stderr, i18n.T("okey: train: checkpoint %d: %v\n", ce.Iteration, ce.Err))
		return 2
	}
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: train: %v\n", err))
		return 2
	}
	n, sum, err := train.Save(c, net, *out)
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: train: %v\n", err))
		return 2
	}
	fmt.Fprint(stdout, i18n.T("wrote %s (%d bytes, sha256 %x) in %s\n", *out, n, sum, time.Since(t0).Round(time.Second)))
	return 0
}

func fmtLosses(ls []float64) string {
	s := make([]string, len(ls))
	for i, l := range ls {
		s[i] = strconv.FormatFloat(l, 'f', 4, 64)
	}
	return strings.Join(s, " ")
}
