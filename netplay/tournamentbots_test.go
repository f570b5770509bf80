package netplay

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	ma "github.com/multiformats/go-multiaddr"

	"github.com/okey-game/okey/p2p"
)

// TestOpenTournamentBots: each bot seat is named after the first seat (its
// name cut to 20 bytes at a character boundary), keeps its folder and data
// under FOLDER/bots/I, listens at ports of its own where --listen says,
// and dials the given peers and every seat opened before it.
func TestOpenTournamentBots(t *testing.T) {
	mn, cs := mockNet(t, 1, "10.0.5", "çaycı-ayşe-ağa-ışık", true)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	folder := t.TempDir()
	me, err := OpenTournamentSeat(ctx, func(context.Context, Options) (*Client, error) { return cs[0], nil }, Options{}, folder)
	if err != nil {
		t.Fatal(err)
	}
	var asked []Options
	open := func(ctx context.Context, o Options) (*Client, error) {
		asked = append(asked, o)
		k, err := p2p.LoadOrCreateIdentity(o.Data)
		if err != nil {
			return nil, err
		}
		h, err := mn.AddPeer(k, ma.StringCast(fmt.Sprintf("/ip4/10.0.6.%d/tcp/4001", len(asked))))
		if err != nil {
			return nil, err
		}
		if err := mn.LinkAll(); err != nil {
			return nil, err
		}
		b := o
		b.Host, b.Peers, b.Listen, b.NoMDNS = h, nil, nil, true
		b.Log, b.Lobby, b.NodeOptions = testLogger(t), fastLobby, testNodeOptions()
		return Open(ctx, b)
	}
	o := Options{Listen: []string{"/ip4/0.0.0.0/tcp/4100"}, Peers: []string{"/ip4/10.9.9.9/tcp/1/p2p/x"}, NoMDNS: true}
	seats, err := OpenTournamentBots(ctx, open, o, folder, 2, []*TournamentSeat{me})
	for _, s := range seats[1:] {
		defer s.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(seats) != 3 || len(asked) != 2 {
		t.Fatalf("%d seats, %d opened, want 3 and 2", len(seats), len(asked))
	}
	for i, a := range asked {
		dir := filepath.Join(folder, "bots", fmt.Sprint(i+1))
		if want := fmt.Sprintf("çaycı-ayşe-ağa--bot%d", i+1); a.Name != want {
			t.Errorf("bot %d: name %q, want %q", i+1, a.Name, want)
		}
		if a.Data != filepath.Join(dir, "data") || seats[i+1].Dir != dir {
			t.Errorf("bot %d: data %q, folder %q, want under %s", i+1, a.Data, seats[i+1].Dir, dir)
		}
		if !slices.Equal(a.Listen, []string{"/ip4/0.0.0.0/tcp/0"}) || !a.NoMDNS {
			t.Errorf("bot %d: listen %q (no-mdns %v), want the port of its own", i+1, a.Listen, a.NoMDNS)
		}
		want := append(slices.Clone(o.Peers), me.Client.Addrs()...)
		if i == 1 {
			want = append(want, seats[1].Client.Addrs()...)
		}
		if !slices.Equal(a.Peers, want) {
			t.Errorf("bot %d: dials %q, want %q", i+1, a.Peers, want)
		}
	}
}
