package participant

import (
	"context"
	"testing"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/table"
)

// localTranscript plays a 3-seat match of greedy bots and returns its
// transcript and the seats' keys.
func localTranscript(t *testing.T) (*table.Transcript, table.Config) {
	t.Helper()
	const seed = 35
	res, err := table.RunLocal(context.Background(), table.LocalOptions{Ruleset: "classic:points=2", Seed: seed,
		Movers: []table.Mover{bot.NewGreedy(), bot.NewGreedy(), bot.NewGreedy()}})
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Transcript(-1)
	if rep := table.Verify(tr); rep.Status() != table.StatusHonest {
		t.Fatalf("the match: %v", rep.Status())
	}
	return tr, res.Config
}

func mustJudge(t *testing.T, tr *table.Transcript) *tcopy {
	t.Helper()
	c, err := judge(tr)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestFurthestCopyWins: a cut prefix and the whole transcript, in either
// order, give the whole one; a copy with a damaged record is cut to what
// verifies and loses to a longer one.
func TestFurthestCopyWins(t *testing.T) {
	tr, cfg := localTranscript(t)
	cut := &table.Transcript{Config: cfg, Chain: tr.Chain[:len(tr.Chain)/2]}
	bad := &table.Transcript{Config: cfg, Chain: append(append([][]byte(nil), tr.Chain[:len(tr.Chain)/3]...), []byte("junk"))}
	whole := mustJudge(t, tr)
	for _, order := range [][]*table.Transcript{{cut, tr, bad}, {tr, bad, cut}, {bad, cut, tr}} {
		var cs copies
		var got *table.Transcript
		for _, x := range order {
			got = cs.add(mustJudge(t, x))
		}
		if cs.best != nil && string(cs.best.file) != string(whole.file) || len(got.Chain) != len(tr.Chain) || len(got.Evidence) != 0 {
			t.Fatalf("kept a chain of %d records (want %d), %d evidence", len(got.Chain), len(tr.Chain), len(got.Evidence))
		}
		if rep := table.Verify(got); rep.Status() != table.StatusHonest {
			t.Fatalf("the merged copy: %v", rep.Status())
		}
	}
	if c := mustJudge(t, bad); c.reach != len(tr.Chain)/3 || c.rep.Status() != table.StatusUnfinished {
		t.Fatalf("a damaged copy judged to reach %d, %v", c.reach, c.rep.Status())
	}
}

// TestDivergentCopiesNameTheSigner: two copies whose chains differ at one
// step (the seat of that step signed two messages for it) are kept both:
// the merged transcript holds the other as evidence, and table.Verify names
// that seat, whichever copy came first.
func TestDivergentCopiesNameTheSigner(t *testing.T) {
	tr, cfg := localTranscript(t)
	_, keys, err := table.LocalConfig(cfg.Ruleset, len(cfg.Seats), 35)
	if err != nil {
		t.Fatal(err)
	}
	i := len(tr.Chain) / 2
	env, err := table.DecodeEnvelope(tr.Chain[i])
	if err != nil {
		t.Fatal(err)
	}
	env.State[0] ^= 1 // another message for the same step, signed by its seat
	if err := env.Seal(keys[env.Seat], cfg.Hash()); err != nil {
		t.Fatal(err)
	}
	other := &table.Transcript{Config: cfg, Chain: append(append([][]byte(nil), tr.Chain[:i]...), env.Raw)}
	for _, order := range [][]*table.Transcript{{tr, other}, {other, tr}} {
		var cs copies
		var got *table.Transcript
		for _, x := range order {
			got = cs.add(mustJudge(t, x))
		}
		rep := table.Verify(got)
		if rep.Status() != table.StatusCheating || rep.Violation.Seat != int(env.Seat) {
			t.Fatalf("the merged copy: %v, violation %+v; want seat %d named", rep.Status(), rep.Violation, env.Seat)
		}
	}
}
