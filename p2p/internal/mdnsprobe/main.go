// Command mdnsprobe starts an okey Node with mDNS discovery and reports when
// it has connected to the expected number of other peers. It exists for
// scripts/lan-discovery.sh, which runs one probe in each of several network
// namespaces joined by a bridge: mDNS must never run on a machine's real
// interfaces in a test, so the probe refuses to start unless
// OKEY_NETNS_TEST=1 is set (the script sets it inside the namespaces).
//
// Output (stdout, one line): "found K peers in D" and exit status 0, or
// "timeout: found K of N peers" and exit status 1. Logs go to stderr.
package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/p2p"
)

func main() {
	peers := flag.Int("peers", 2, "other peers to find")
	timeout := flag.Duration("timeout", 20*time.Second, "give up after this long")
	linger := flag.Duration("linger", 3*time.Second, "stay up this long after success so the others can finish")
	service := flag.String("service", p2p.ServiceName, "mDNS service name")
	verbose := flag.Bool("v", false, "debug logs on stderr")
	flag.Parse()
	if os.Getenv("OKEY_NETNS_TEST") != "1" {
		fmt.Fprintln(os.Stderr, "mdnsprobe: refusing to multicast: run me through scripts/lan-discovery.sh (OKEY_NETNS_TEST=1 inside a network namespace)")
		os.Exit(2)
	}
	lvl := slog.LevelInfo
	if *verbose {
		lvl = slog.LevelDebug
	}
	h := slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lvl})
	p2p.RouteLibraryLogs(h)
	os.Exit(run(slog.New(h), *peers, *timeout, *linger, *service))
}

func run(log *slog.Logger, want int, timeout, linger time.Duration, service string) int {
	start := time.Now()
	host, err := p2p.NewHost(p2p.WithListenAddrs("/ip4/0.0.0.0/tcp/0", "/ip4/0.0.0.0/udp/0/quic-v1"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "mdnsprobe:", err)
		return 1
	}
	node, err := p2p.NewNode(host, p2p.WithLogger(log), p2p.WithMDNS(service))
	if err != nil {
		fmt.Fprintln(os.Stderr, "mdnsprobe:", err)
		return 1
	}
	defer node.Close()
	seen := map[peer.ID]bool{}
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for len(seen) < want {
		if time.Now().After(deadline) {
			fmt.Printf("timeout: found %d of %d peers\n", len(seen), want)
			return 1
		}
		<-tick.C
		for _, p := range host.Network().Peers() {
			seen[p] = true
		}
	}
	fmt.Printf("found %d peers in %v\n", len(seen), time.Since(start).Round(time.Millisecond))
	time.Sleep(linger)
	return 0
}
