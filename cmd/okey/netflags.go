package main

import (
	"flag"
	"io"
	"log/slog"

	ma "github.com/multiformats/go-multiaddr"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/netplay"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/ui"
)

// netFlags are the flags every command that runs a peer of its own on the
// network shares (okey bot, watch and tournament): its data directory,
// where it listens, whom it dials, discovery, and its log. One definition
// keeps their names, words and checks alike.
type netFlags struct {
	data, logFile   string
	listen, peers   stringList
	noMDNS, verbose bool
}

// register defines the flags on fs.
func (n *netFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&n.data, "data", "", i18n.T("data directory: identity, profile, match state (default: the user's config directory)"))
	fs.Var(&n.listen, "listen", i18n.T("multiaddr to listen on (repeatable; default every interface, TCP and QUIC, random ports)"))
	fs.Var(&n.peers, "peer", i18n.T("multiaddr of a peer to dial, ending in /p2p/<id> (repeatable)"))
	fs.BoolVar(&n.noMDNS, "no-mdns", false, i18n.T("no mDNS discovery (use --peer)"))
	fs.BoolVar(&n.verbose, "v", false, i18n.T("log protocol detail"))
	fs.StringVar(&n.logFile, "log", "", i18n.T("write logs to this file instead of stderr"))
}

// checkAddrs checks --listen and --peer: the usage message of the first
// bad one ("" when all are good).
func (n *netFlags) checkAddrs() string {
	for _, a := range n.listen {
		if _, err := ma.NewMultiaddr(a); err != nil {
			return i18n.T("--listen %q: %v", a, ui.Plain(err))
		}
	}
	for _, a := range n.peers {
		if _, err := p2p.ParsePeerAddr(a); err != nil {
			return i18n.T("--peer: %v", ui.Plain(err))
		}
	}
	return ""
}

// defaultData fills in the default data directory when --data is not
// given; the usage message when there is none.
func (n *netFlags) defaultData() string {
	if n.data != "" {
		return ""
	}
	d, err := p2p.DefaultConfigDir()
	if err != nil {
		return i18n.T("%v (use --data)", ui.Plain(err))
	}
	n.data = d
	return ""
}

// openLog opens the command's log in the file at path (stderr when ""),
// with protocol detail under -v; close closes it.
func (n *netFlags) openLog(stderr io.Writer, path string) (log *slog.Logger, close func(), err error) {
	h, closeLog, err := netplay.CommandLog(stderr, path, n.verbose)
	if err != nil {
		return nil, nil, err
	}
	return netplay.NetworkLog(h, n.verbose), closeLog, nil
}
