package netplay

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/invite"
	p2ptournament "github.com/okey-game/okey/p2p/tournament"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/tournament/participant"
)

// TournamentSeat is one of this process's seats in a tournament (okey
// tournament: the command's own, and each of its bots): its client with
// the tournament topic joined, its folder and its data directory.
type TournamentSeat struct {
	Client *Client
	Topic  *p2ptournament.Net
	// Net is the participant.Net over Topic.
	Net             participant.Net
	Dir, Data, Name string
}

// OpenTournamentSeat opens a seat's client with open (Open, or a test's),
// with the options o, and joins the tournament topic; dir is its folder.
func OpenTournamentSeat(ctx context.Context, open func(context.Context, Options) (*Client, error), o Options, dir string) (*TournamentSeat, error) {
	c, err := open(ctx, o)
	if err != nil {
		return nil, err
	}
	tn, err := p2ptournament.Join(c.Node())
	if err != nil {
		c.Close()
		return nil, err
	}
	return &TournamentSeat{Client: c, Topic: tn, Net: TournamentNet(tn), Dir: dir, Data: o.Data, Name: o.Name}, nil
}

// Close leaves the tournament topic and closes the client.
func (s *TournamentSeat) Close() {
	s.Topic.Close()
	s.Client.Close()
}

// TableNet is a participant.Config's TableNet over the seat's client: each
// table's network opened within ctx, its members given 30s to be heard.
func (s *TournamentSeat) TableNet(ctx context.Context) func(tournament.Ref, table.Config) (table.Transport, error) {
	return func(_ tournament.Ref, cfg table.Config) (table.Transport, error) {
		return s.Client.TournamentTable(ctx, cfg, 30*time.Second)
	}
}

// Running is participants running at once (RunParticipants).
type Running struct {
	over chan struct{}
	reps []*tournament.Report
	errs []error
}

// RunParticipants runs every participant of ps at once, each until it
// ends. stopAll is told of each end (on that participant's goroutine) and
// says whether the others must stop too: then cancel is called (the
// context they run in).
func RunParticipants(ctx context.Context, ps []*participant.Participant, stopAll func(i int, err error) bool, cancel func()) *Running {
	r := &Running{over: make(chan struct{}), reps: make([]*tournament.Report, len(ps)), errs: make([]error, len(ps))}
	var wg sync.WaitGroup
	for i, p := range ps {
		wg.Go(func() {
			r.reps[i], r.errs[i] = p.Run(ctx)
			if stopAll(i, r.errs[i]) {
				cancel()
			}
		})
	}
	go func() {
		wg.Wait()
		close(r.over)
	}()
	return r
}

// Over is closed when every participant has ended.
func (r *Running) Over() <-chan struct{} { return r.over }

// Wait waits for every participant to end and gives their reports and
// errors, in the order of ps.
func (r *Running) Wait() ([]*tournament.Report, []error) {
	<-r.over
	return r.reps, r.errs
}

// TournamentCode is the invite code of tournament tid created by this
// client with secret s: 7.10's format, the tournament id in hex as the
// table, the node's addresses, no relay. A tournament is played on a LAN:
// its private addresses come first, then public ones, then loopback ones,
// and those that do not fit are left out from the end.
func (c *Client) TournamentCode(tid [32]byte, s invite.Secret) (string, error) {
	n := c.Node()
	addrs := p2p.InviteAddrs(n.Host().Addrs())
	rank := func(a ma.Multiaddr) int {
		switch {
		case manet.IsIPLoopback(a):
			return 2
		case manet.IsPrivateAddr(a):
			return 0
		}
		return 1
	}
	slices.SortStableFunc(addrs, func(x, y ma.Multiaddr) int { return rank(x) - rank(y) })
	code := invite.Code{Table: hex.EncodeToString(tid[:]), Creator: n.ID(), Secret: s, Addrs: addrs}
	for {
		text, err := code.Encode()
		if err == nil || !errors.Is(err, invite.ErrTooLong) || len(code.Addrs) == 0 {
			return text, err
		}
		code.Addrs = code.Addrs[:len(code.Addrs)-1]
	}
}

// ReachCreator dials a code's creator (its private and loopback addresses
// first: protocol.md 7.10, step 1); an error leaves discovery to find it.
func (c *Client) ReachCreator(ctx context.Context, code invite.Code) error {
	n := c.Node()
	if code.Creator == n.ID() {
		return nil
	}
	_, err := n.DialCode(ctx, code)
	return err
}

// OpenTournamentBots opens k bot seats after seats (this process's seats
// opened so far, its own first, opened with the options o) with open, and
// returns seats with them. Bot i (from 1) is named after the first seat
// ("NAME-botI", NAME cut to 20 bytes), keeps its folder at
// folder/bots/I and its data directory in it, dials o.Peers and every seat
// opened before it (so that the seats of one process meet without
// discovery too), and listens where o.Listen says but at ports of its own
// (BotListen): a fixed port is the command's own seat's (libp2p reuses
// ports, so the bots would all take it, and a dial naming that seat would
// reach one of them: "peer id mismatch"). On an error the seats opened
// so far are returned with it.
func OpenTournamentBots(ctx context.Context, open func(context.Context, Options) (*Client, error), o Options, folder string, k int, seats []*TournamentSeat) ([]*TournamentSeat, error) {
	name := cutName(seats[0].Client.Name(), 20)
	for i := 1; i <= k; i++ {
		known := slices.Clone(o.Peers)
		for _, s := range seats {
			known = append(known, s.Client.Addrs()...)
		}
		dir := filepath.Join(folder, "bots", strconv.Itoa(i))
		bo := Options{Data: filepath.Join(dir, "data"), Name: fmt.Sprintf("%s-bot%d", name, i), Listen: BotListen(o.Listen),
			NoMDNS: o.NoMDNS, Peers: known, Log: o.Log}
		s, err := OpenTournamentSeat(ctx, open, bo, dir)
		if err != nil {
			return seats, err
		}
		seats = append(seats, s)
	}
	return seats, nil
}
