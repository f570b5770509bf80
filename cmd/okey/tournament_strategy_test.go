package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/netplay"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/tournament/participant"
	"github.com/okey-game/okey/verdict/folder"
)

// issue 35 item 5: the bots of a tournament play Okey 101 as okey sim's do
// (greedy, the default, means b101 there; b101 is accepted), and a strategy
// that cannot play the tournament's ruleset is refused at once.

func strategyTestKey(i int) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte(fmt.Sprintf("strategy test %d", i)))
	return ed25519.NewKeyFromSeed(seed[:])
}

// canonical101 is the shortest Okey 101 ruleset's canonical text.
func canonical101(t *testing.T) string {
	rs, err := engine.ParseRuleset("101:rounds=3")
	if err != nil {
		t.Fatal(err)
	}
	return rs.String()
}

// botParticipant is participant i of a tournament over bus, its seat played
// by strategy the way okey tournament plays its bot seats.
func botParticipant(t *testing.T, bus *participant.MemBus, i int, strategy string, create *participant.Create) (*participant.Participant, string) {
	t.Helper()
	id := fmt.Sprintf("peer-%d", i)
	dir := filepath.Join(t.TempDir(), id)
	c := participant.Config{Dir: dir, Key: strategyTestKey(i), Name: fmt.Sprintf("bot%d", i), PeerID: id, Net: bus.Join(id),
		TableNet: func(_ tournament.Ref, cfg table.Config) (table.Transport, error) { return bus.TableNet(id, cfg), nil },
		Withhold: 60 * time.Second, Retry: 200 * time.Millisecond, DrawWait: 60 * time.Second, Create: create}
	participant.StrategySeat(&c, strategy)
	p, err := participant.New(c)
	if err != nil {
		t.Fatal(err)
	}
	return p, dir
}

// TestSmallTournament101Bots: a one-round tournament of Okey 101 matches of three rounds of three
// bots, two with the default strategy (greedy, b101 at a 101 table) and one
// with --strategy b101, plays to honest final standings in every folder.
// Before, the first table failed: "seat 2's mover does not play Okey 101".
func TestSmallTournament101Bots(t *testing.T) {
	lane.NoRace(t)
	bus := participant.NewMemBus()
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	strategies := []string{"greedy", "b101", "greedy"}
	create := &participant.Create{Name: "cup", Format: "swiss:rounds=1", Ruleset: canonical101(t), Players: len(strategies)}
	reps := make([]*tournament.Report, len(strategies))
	errs := make([]error, len(strategies))
	dirs := make([]string, len(strategies))
	var wg sync.WaitGroup
	for i, s := range strategies {
		var p *participant.Participant
		if i == 0 {
			p, dirs[i] = botParticipant(t, bus, i, s, create)
		} else {
			p, dirs[i] = botParticipant(t, bus, i, s, nil)
		}
		wg.Go(func() { reps[i], errs[i] = p.Run(ctx) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("participant %d (%s): %v", i, strategies[i], err)
		}
		if rep := reps[i]; rep.Status != tournament.StatusHonest || len(rep.Final) != len(strategies) {
			t.Fatalf("participant %d: status %d final %v problems %+v", i, rep.Status, rep.Final, rep.Problems)
		}
		if code := folder.Verify(dirs[i], false, &bytes.Buffer{}); code != 0 {
			t.Fatalf("participant %d's folder: okey verify exit %d", i, code)
		}
	}
}

// TestTournamentStrategyRefusedAtOnce: okey tournament create refuses, with
// the reason and before it opens the network, a bot strategy that cannot
// play the ruleset (expert at Okey 101, b101 at classic) or no strategy at
// all; b101 is a strategy (accepted at 101, where before it was unknown).
func TestTournamentStrategyRefusedAtOnce(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"create", "--bot", "--preset", "101:rounds=3", "--strategy", "expert"}, "only b101 plays Okey 101"},
		{[]string{"create", "--players", "3", "--bots", "2", "--preset", "101", "--strategy", "random"}, "only b101 plays Okey 101"},
		{[]string{"create", "--bot", "--strategy", "b101"}, "b101 plays Okey 101 only"},
		{[]string{"join", "--bot", "--strategy", "nonesuch"}, "unknown strategy"},
	} {
		dir := t.TempDir()
		var out, errb bytes.Buffer
		args := append(c.args, "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--dir", filepath.Join(dir, "t"), "--data", filepath.Join(dir, "data"), "--wait", "5s")
		if code := runTournament(args, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), c.want) {
			t.Fatalf("%s: exit %d, stderr %q; want 2 and %q", strings.Join(c.args, " "), code, errb.String(), c.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "data")); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%s: the data directory was made (%v): the command went on", strings.Join(c.args, " "), err)
		}
	}
}

// TestTournamentJoinRefusesStrategy: a participant whose bot strategy
// cannot play the tournament's ruleset (expert, at Okey 101) stops as soon
// as it hears the announcement, with the reason, and never registers.
func TestTournamentJoinRefusesStrategy(t *testing.T) {
	bus := participant.NewMemBus()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	creator, cdir := botParticipant(t, bus, 0, "greedy", &participant.Create{Name: "cup", Format: "swiss:rounds=1", Ruleset: canonical101(t), Players: 3})
	cctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); creator.Run(cctx) }()
	joiner, _ := botParticipant(t, bus, 1, "expert", nil)
	_, err := joiner.Run(ctx)
	var se *participant.StrategyError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "only b101 plays Okey 101") {
		t.Fatalf("joiner: %v, want the strategy refused", err)
	}
	stop()
	<-done
	raw, err := os.ReadFile(filepath.Join(cdir, "tournament"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := tournament.DecodeFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	var joinerKey [32]byte
	copy(joinerKey[:], strategyTestKey(1).Public().(ed25519.PublicKey))
	if len(recs) == 0 {
		t.Fatal("the creator kept no records")
	}
	for _, raw := range recs {
		r, err := tournament.Decode(raw)
		if err != nil {
			t.Fatal(err)
		}
		if r.Kind == tournament.KindRegister && r.Signer == joinerKey {
			t.Fatal("the joiner registered")
		}
	}
}

// TestStrategyAt101: every command's --strategy as okey sim's: at Okey 101
// greedy and b101 play (b101's bot), any other is refused with the reason;
// elsewhere b101 is refused; okey play refuses the same at once.
func TestStrategyAt101(t *testing.T) {
	for _, c := range []struct {
		name  string
		is101 bool
		ok    bool
	}{
		{"greedy", true, true}, {"b101", true, true}, {"expert", true, false}, {"random", true, false},
		{"greedy", false, true}, {"expert", false, true}, {"b101", false, false}, {"oracle", false, false},
	} {
		m, err := bot.ForTable(c.name, 1, c.is101)
		if (err == nil) != c.ok {
			t.Fatalf("%s (101: %v): %v, want ok %v", c.name, c.is101, err, c.ok)
		}
		if err == nil && c.is101 {
			if _, ok := m.(table.Mover101); !ok {
				t.Fatalf("%s at 101: %T does not play Okey 101", c.name, m)
			}
		}
	}
	for _, args := range [][]string{
		{"play", "--bots", "3", "--preset", "101", "--strategy", "expert"},
		{"play", "--bots", "1", "--strategy", "b101"},
	} {
		var out, errb bytes.Buffer
		if code := run(append(args, "--data", t.TempDir()), nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "101") {
			t.Fatalf("%v: exit %d, stderr %q; want 2 and the reason", args, code, errb.String())
		}
	}
}

// TestTournamentBotsSpreadPorts: okey tournament create --bots with a fixed
// --listen port: this command's own seat takes the port, each bot of the
// process listens on the same interface at a port of its own (before, with
// libp2p's port reuse, they all took it, and a --peer dial naming the
// creator reached whichever answered: "peer id mismatch"). The command is
// stopped at its second bot's opening, before any network traffic.
func TestTournamentBotsSpreadPorts(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := fmt.Sprint(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	var addrs [][]string
	stop := errors.New("test: stopped at the second bot")
	saved := tournamentOpen
	defer func() { tournamentOpen = saved }()
	tournamentOpen = func(ctx context.Context, o netplay.Options) (*netplay.Client, error) {
		if len(addrs) == 2 {
			return nil, stop
		}
		c, err := saved(ctx, o)
		if err == nil {
			addrs = append(addrs, c.Addrs())
		}
		return c, err
	}
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := runTournament([]string{"create", "--bot", "--players", "3", "--bots", "2", "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/" + port,
		"--dir", filepath.Join(dir, "t"), "--data", filepath.Join(dir, "data")}, nil, &out, &errb)
	if code != 2 || !strings.Contains(errb.String(), stop.Error()) || len(addrs) != 2 {
		t.Fatalf("exit %d, %d seats opened, stderr %q", code, len(addrs), errb.String())
	}
	has := func(as []string) bool {
		for _, a := range as {
			if strings.HasPrefix(a, "/ip4/127.0.0.1/tcp/"+port+"/") || a == "/ip4/127.0.0.1/tcp/"+port {
				return true
			}
		}
		return false
	}
	if !has(addrs[0]) {
		t.Fatalf("the command's own seat listens on %q, not on port %s", addrs[0], port)
	}
	if has(addrs[1]) || len(addrs[1]) == 0 {
		t.Fatalf("the bot listens on %q: the command's own port %s, or nowhere", addrs[1], port)
	}
}
