package main

import (
	"context"
	"log/slog"
	"slices"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/netplay"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/relay"
)

// TestLobbyAddRelayLine: the relay line given in the lobby (y) is used as
// --relay LINE: the lobby's bots get it, and it is kept in the relay
// setting (okey play without --relay uses it next time); text that is not
// a relay line is refused with one sentence and changes nothing.
func TestLobbyAddRelayLine(t *testing.T) {
	data := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, err := netplay.Open(ctx, netplay.Options{Data: data, Name: "ayse", NoMDNS: true, Reach: true, Listen: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	lb := newLanLobby(ctx, c, slog.New(slog.DiscardHandler), "greedy", nil, false, nil)
	if err := lb.CheckRelayLine("okey1notarelay"); err == nil || err.Error() != "this is not the line okey relay prints: copy it again, whole" {
		t.Fatalf("CheckRelayLine of a code: %v", err)
	}
	key, err := relay.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	k, err := p2p.LoadOrCreateIdentity(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	rid, err := peer.IDFromPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	line := relay.FormatLine("/ip4/127.0.0.1/tcp/9/p2p/"+rid.String(), key)
	if err := lb.CheckRelayLine(line); err != nil {
		t.Fatal(err)
	}
	if err := lb.AddRelay(ctx, " "+line+"\n"); err != nil {
		t.Fatal(err)
	}
	if got := lb.botRelays(); !slices.Equal(got, []string{line}) {
		t.Fatalf("the bots' relays: %q", got)
	}
	saved, err := netplay.ResolveRelays(data, nil)
	if err != nil || !slices.Equal(saved, []string{line}) {
		t.Fatalf("the relay setting: %q %v", saved, err)
	}
	if !slices.ContainsFunc(c.Node().Relays(), func(r peer.AddrInfo) bool { return r.ID == rid }) {
		t.Fatalf("the node's relays: %v", c.Node().Relays())
	}
}
