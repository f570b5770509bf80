package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/netplay"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/relay"
	"github.com/okey-game/okey/ui"
)

func init() {
	register(command{name: "relay", summary: i18n.Mark("run a relay for your friends' tables: only admitted players, never an open relay"), run: runRelay})
}

func runRelay(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("relay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, helpText("relay")); printDefaults(fs) }
	var listen, allow, announce stringList
	fs.Var(&listen, "listen", i18n.T("multiaddr to listen on (repeatable; default TCP and QUIC on port 4001 of every interface)"))
	fs.Var(&allow, "allow", i18n.T("peer id of a player who may register tables (repeatable)"))
	fs.Var(&announce, "announce", i18n.T("an address to print and give out besides the relay's own (repeatable)"))
	data := fs.String("data", "", i18n.T("data directory: identity, allow-list, registered tables (default: the user's config directory, subdirectory relay)"))
	rate := fs.Int("rate", relay.DefaultRate, i18n.T("bytes a second relayed from one player at most"))
	newKey := fs.Bool("new-key", false, i18n.T("replace the relay's key (its line): the old line registers nothing any more"))
	noKey := fs.Bool("no-key", false, i18n.T("remove the relay's key: only the allow-list registers tables"))
	verbose := fs.Bool("v", false, i18n.T("log every request"))
	logFile := fs.String("log", "", i18n.T("write logs to this file instead of stderr"))
	if err := fs.Parse(args); err != nil {
		return 2
	}
	usageErr := func(msg string) int {
		fmt.Fprintf(stderr, "okey: relay: %s\n", msg)
		return 2
	}
	if fs.NArg() > 0 {
		return usageErr(i18n.T("takes no arguments, got %q", fs.Arg(0)))
	}
	if len(listen) == 0 {
		listen = stringList{"/ip4/0.0.0.0/tcp/4001", "/ip4/0.0.0.0/udp/4001/quic-v1", "/ip6/::/tcp/4001", "/ip6/::/udp/4001/quic-v1"}
	}
	extra, allowed, msg := checkRelayFlags(listen, announce, allow, *rate)
	if msg != "" {
		return usageErr(msg)
	}
	if *newKey && *noKey {
		return usageErr(i18n.T("--new-key and --no-key exclude each other"))
	}
	if *data == "" {
		d, err := p2p.DefaultConfigDir()
		if err != nil {
			return usageErr(i18n.T("%v (use --data)", ui.Plain(err)))
		}
		*data = filepath.Join(d, "relay")
	}
	allowPath := filepath.Join(*data, relay.AllowFile)
	if _, err := relay.ReadAllowFile(allowPath); err != nil {
		return usageErr(ui.Plain(err))
	}

	h, closeLog, err := netplay.CommandLog(stderr, *logFile, *verbose)
	if err != nil {
		return usageErr(i18n.T("--log: %v", ui.Plain(err)))
	}
	defer closeLog()
	log := slog.New(h)
	netplay.RouteLibraryLogsOnce(h)

	failed := func(err error) int {
		fmt.Fprint(stderr, i18n.T("okey: relay: %s\n", ui.Plain(err)))
		return 2
	}
	r, err := netplay.ServeRelay(netplay.RelayOptions{Data: *data, Listen: listen, Rate: *rate, NewKey: *newKey, NoKey: *noKey, Allowed: allowed, Log: log})
	if err != nil {
		return failed(err)
	}
	defer r.Close()
	host, svc, rkey := r.Host, r.Service, r.Key
	addrs := relay.LineAddrs(host.Addrs(), extra)
	for _, a := range addrs {
		fmt.Fprintf(stdout, "relay: %s/p2p/%s\n", a, host.ID())
	}
	if !rkey.IsZero() && len(addrs) > 0 {
		// The line holds the key: stdout only, never the log.
		fmt.Fprintf(stdout, "relay line: %s\n", relay.FormatLine(fmt.Sprintf("%s/p2p/%s", addrs[0], host.ID()), rkey))
		fmt.Fprint(stderr, i18n.T("okey: relay: give your friends the relay line above, once; each starts with okey play --relay LINE\n"))
	}
	log.Info("relay started", "peer", host.ID().String(), "tables", svc.Tables(), "allowed", len(allowed), "key", !rkey.IsZero())

	ctx, stop := relayStopContext()
	defer stop()
	<-ctx.Done()
	log.Info("relay stopping", "refused", svc.Refused())
	return 0
}

// checkRelayFlags checks okey relay's addresses, allow-list and rate:
// the addresses to announce, the peers allowed, or the usage message of
// the first bad one.
func checkRelayFlags(listen, announce, allow []string, rate int) ([]ma.Multiaddr, map[peer.ID]bool, string) {
	for _, a := range listen {
		if _, err := ma.NewMultiaddr(a); err != nil {
			return nil, nil, i18n.T("--listen %q: %v", a, ui.Plain(err))
		}
	}
	var extra []ma.Multiaddr
	for _, a := range announce {
		m, err := ma.NewMultiaddr(a)
		if err != nil {
			return nil, nil, i18n.T("--announce %q: %v", a, ui.Plain(err))
		}
		extra = append(extra, m)
	}
	allowed := map[peer.ID]bool{}
	for _, a := range allow {
		p, err := peer.Decode(a)
		if err != nil {
			return nil, nil, i18n.T("--allow %q: not a peer id", a)
		}
		allowed[p] = true
	}
	if rate < 1024 {
		return nil, nil, i18n.T("--rate must be at least 1024")
	}
	return extra, allowed, ""
}

// relayStopContext is done at SIGINT or SIGTERM (tests replace it).
var relayStopContext = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
