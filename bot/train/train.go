// Package train trains the learned player's net (bot.Learned) from play
// with the rules engine alone (okey train): by returns (Deep Monte-Carlo)
// or by imitation of another strategy, an iteration at a time, with a
// checkpoint after each that a run started again resumes from.
package train

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
)

// Config is a training run (okey train's flags).
type Config struct {
	Iterations, Hands, Epochs int
	Seed                      uint64
	// Checkpoint, when not "", is the directory of a net after each
	// iteration (DIR/iter-K.net), and the run resumes from it.
	Checkpoint string
	// Eval hands against three greedy after each iteration (0: none).
	Eval    int
	Workers int
	// Explore is the share of random discards in self-play.
	Explore float64
	// Imitate, when not "", fits the net to rank discards as this
	// strategy does, not to returns.
	Imitate string
	// Hidden is the units of the first hidden layer.
	Hidden int
}

// Events tell a run's progress; any may be nil.
type Events struct {
	// Resumed: the run goes on after iteration k, from its checkpoint.
	Resumed func(k int)
	// Trained: iteration k fitted the net to its samples, made by
	// self-play in selfPlay, with the loss of each epoch, in all in took.
	Trained func(k, samples int, selfPlay time.Duration, losses []float64, took time.Duration)
	// Evaluated: iteration k's net against three greedy.
	Evaluated func(k int, share bot.Interval, hands, deals int)
}

// CheckpointError is a checkpoint that does not load.
type CheckpointError struct {
	Iteration int
	Err       error
}

func (e *CheckpointError) Error() string { return fmt.Sprintf("checkpoint %d: %v", e.Iteration, e.Err) }
func (e *CheckpointError) Unwrap() error { return e.Err }

var rules = engine.MustRuleset("classic", "")

// Run trains the net and returns it.
func Run(c Config, ev Events) (*bot.Net, error) {
	net, start, err := resume(c)
	if err != nil {
		return nil, err
	}
	if start > 0 && ev.Resumed != nil {
		ev.Resumed(start - 1)
	}
	for k := start; k < c.Iterations; k++ {
		ti := time.Now()
		s := c.Seed*1000 + uint64(k)
		if k == 0 {
			net = bot.NewNet(bot.NetInputs, c.Hidden, c.Hidden/2, c.Seed)
		}
		samples, err := selfPlay(c, net, k, s)
		if err != nil {
			return nil, err
		}
		tp := time.Since(ti)
		losses := net.Train(samples, bot.TrainConfig{Epochs: c.Epochs, Seed: s})
		if ev.Trained != nil {
			ev.Trained(k, len(samples), tp, losses, time.Since(ti))
		}
		if c.Checkpoint != "" {
			data, _ := net.MarshalBinary()
			if err := WriteFileAtomic(checkpoint(c.Checkpoint, k), data); err != nil {
				return nil, err
			}
		}
		if c.Eval > 0 {
			res, err := evaluate(c, net)
			if err != nil {
				return nil, err
			}
			if ev.Evaluated != nil {
				ev.Evaluated(k, res.ShareByDeal(res.Stats[0]), res.Hands, res.Deals())
			}
		}
	}
	return net, nil
}

func checkpoint(dir string, k int) string { return filepath.Join(dir, "iter-"+strconv.Itoa(k)+".net") }

// resume is the net of the last iteration checkpointed, and the iteration
// after it (0: none).
func resume(c Config) (*bot.Net, int, error) {
	if c.Checkpoint == "" {
		return nil, 0, nil
	}
	if err := os.MkdirAll(c.Checkpoint, 0o755); err != nil {
		return nil, 0, err
	}
	for k := c.Iterations - 1; k >= 0; k-- {
		data, err := os.ReadFile(checkpoint(c.Checkpoint, k))
		if err != nil {
			continue
		}
		net := &bot.Net{}
		if err := net.UnmarshalBinary(data); err != nil {
			return nil, 0, &CheckpointError{k, err}
		}
		return net, k + 1, nil
	}
	return nil, 0, nil
}

// selfPlay is iteration k's samples.
func selfPlay(c Config, net *bot.Net, k int, s uint64) ([]bot.Sample, error) {
	greedy3 := func(first string) []string { return []string{first, "greedy", "greedy", "greedy"} }
	switch {
	case c.Imitate != "" && k == 0:
		return bot.SelfPlay(bot.SelfPlayConfig{Rules: rules, Bots: greedy3(c.Imitate),
			Record: []string{c.Imitate}, Imitate: true, Hands: c.Hands, Seed: s, Workers: c.Workers})
	case c.Imitate != "":
		return bot.SelfPlay(bot.SelfPlayConfig{Rules: rules, Bots: greedy3(bot.LearnedName),
			Record: []string{bot.LearnedName}, Net: net, Imitate: true, Teacher: c.Imitate, Hands: c.Hands, Seed: s, Workers: c.Workers})
	case k == 0:
		return bot.SelfPlay(bot.SelfPlayConfig{Rules: rules, Bots: greedy3("greedy"),
			Record: []string{"greedy"}, Epsilon: c.Explore, OnlyExplored: true, Hands: c.Hands, Seed: s, Workers: c.Workers})
	}
	samples, err := bot.SelfPlay(bot.SelfPlayConfig{Rules: rules, Bots: greedy3(bot.LearnedName),
		Record: []string{bot.LearnedName}, Net: net, Epsilon: c.Explore, OnlyExplored: true, Hands: c.Hands, Seed: s, Workers: c.Workers})
	if err != nil {
		return nil, err
	}
	more, err := bot.SelfPlay(bot.SelfPlayConfig{Rules: rules, Bots: []string{bot.LearnedName, bot.LearnedName, bot.LearnedName, bot.LearnedName},
		Record: []string{bot.LearnedName}, Net: net, Epsilon: c.Explore, OnlyExplored: true, Hands: c.Hands, Seed: s + 500, Workers: c.Workers})
	return append(samples, more...), err
}

// evaluate plays the net against three greedy.
func evaluate(c Config, n *bot.Net) (bot.ArenaResult, error) {
	return bot.Arena(bot.ArenaConfig{Rules: rules, Bots: []string{bot.LearnedName, "greedy", "greedy", "greedy"},
		Hands: c.Eval, Seed: c.Seed, Workers: c.Workers, Make: func(name string, seed uint64) (bot.Strategy, error) {
			if name == bot.LearnedName && c.Imitate != "" {
				return bot.NewLearnedImitation(n, seed), nil
			}
			if name == bot.LearnedName {
				return bot.NewLearnedNet(n, seed), nil
			}
			return bot.New(name, seed)
		}})
}

// Save writes the net to path with path.txt beside it: the command that
// made it, the seed and the SHA-256 the player checks when it loads the
// weights. It returns the net's bytes and their SHA-256.
func Save(c Config, net *bot.Net, path string) (int, [32]byte, error) {
	data, _ := net.MarshalBinary()
	sum := sha256.Sum256(data)
	if err := WriteFileAtomic(path, data); err != nil {
		return 0, sum, err
	}
	if err := WriteFileAtomic(path+".txt", []byte(Note(c, data))); err != nil {
		return 0, sum, err
	}
	return len(data), sum, nil
}

// Note is the text kept beside a net's file.
func Note(c Config, data []byte) string {
	cmd := fmt.Sprintf("okey train --iterations %d --hands %d --epochs %d --explore %g --seed %d", c.Iterations, c.Hands, c.Epochs, c.Explore, c.Seed)
	if c.Imitate != "" {
		cmd += " --imitate " + c.Imitate
	}
	if c.Hidden != 32 {
		cmd += fmt.Sprintf(" --hidden %d", c.Hidden)
	}
	return fmt.Sprintf("%s\nseed %d\nsha256 %x\nbytes %d\n", cmd, c.Seed, sha256.Sum256(data), len(data))
}

// WriteFileAtomic writes data to a temporary file beside name and renames
// it, so a stopped run never leaves a cut file.
func WriteFileAtomic(name string, data []byte) error {
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}
