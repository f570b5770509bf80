package netplay

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/tournament/participant"
)

// TestRunParticipantsStopsAll: participants run at once; when one ends in
// a way stopAll says stops them all (a bot that cannot play the ruleset),
// the others stop too, and Wait gives every end, in order.
func TestRunParticipantsStopsAll(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	bus := participant.NewMemBus()
	mk := func(i int, strategy string, create *participant.Create) *participant.Participant {
		id := fmt.Sprintf("peer-%d", i)
		seed := sha256.Sum256([]byte(id))
		c := participant.Config{Dir: filepath.Join(t.TempDir(), id), Key: ed25519.NewKeyFromSeed(seed[:]), Name: id, PeerID: id, Net: bus.Join(id),
			TableNet: func(_ tournament.Ref, cfg table.Config) (table.Transport, error) { return bus.TableNet(id, cfg), nil },
			Withhold: time.Minute, Retry: 100 * time.Millisecond, DrawWait: time.Minute, Create: create}
		participant.StrategySeat(&c, strategy)
		p, err := participant.New(c)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	creator := mk(0, "greedy", &participant.Create{Name: "cup", Format: "swiss:rounds=1", Ruleset: "101", Players: 3})
	joiner := mk(1, "expert", nil)
	rctx, stop := context.WithCancel(ctx)
	told := make(chan int, 2)
	run := RunParticipants(rctx, []*participant.Participant{creator, joiner}, func(i int, err error) bool {
		told <- i
		var se *participant.StrategyError
		return errors.As(err, &se)
	}, stop)
	select {
	case <-run.Over():
	case <-ctx.Done():
		t.Fatal("the creator did not stop when the joiner's strategy was refused")
	}
	_, errs := run.Wait()
	var se *participant.StrategyError
	if !errors.As(errs[1], &se) {
		t.Fatalf("the joiner: %v, want its strategy refused", errs[1])
	}
	if errs[0] == nil || errors.As(errs[0], &se) {
		t.Fatalf("the creator: %v, want stopped", errs[0])
	}
	if len(told) != 2 {
		t.Fatalf("stopAll told of %d ends, want 2", len(told))
	}
}

// TestTournamentCode: a creator's code names the tournament (its id in
// hex as the table), the creator and the secret, and reaching the creator
// of one's own code dials no one.
func TestTournamentCode(t *testing.T) {
	_, cs := mockClients(t, 1)
	s, err := invite.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	tid := [32]byte{7, 8, 9}
	text, err := cs[0].TournamentCode(tid, s)
	if err != nil {
		t.Fatal(err)
	}
	c, err := invite.ParsePasted(text)
	if err != nil {
		t.Fatal(err)
	}
	iv, err := participant.InvitationFromCode(c)
	if err != nil || iv.Tournament != tid || iv.Secret != s || c.Creator.String() != cs[0].ID() || len(c.Addrs) == 0 {
		t.Fatalf("the code: %+v %+v %v", c, iv, err)
	}
	if err := cs[0].ReachCreator(context.Background(), c); err != nil {
		t.Fatal(err)
	}
}
