// Package p2p is okey's network node: a libp2p host (TCP and QUIC, Noise,
// Yamux), a persistent identity, peer discovery (mDNS on the LAN with okey's
// own service name, or static --peer addresses), one gossipsub topic per
// table with its roll-call, spectators and chat, a direct stream protocol
// for catch-up, the links to each peer and the node's side of relays
// (dialing through them, presenting a table's token, Node.DialCode for an
// invite code). TableTransport implements table.Transport.
//
// The services beside the node live in their own packages, as go-libp2p
// lays out its own: p2p/lobby (the tables' lobby and their formation),
// p2p/relay (the relay service and its client calls), p2p/tournament (the
// tournament topic), p2p/invite (the invite code). Each registers its
// handlers on the node's host in its constructor (using Node.Base) and
// removes them in its Close; the node knows none of them but the relay
// service it may serve (WithServeRelay).
//
// The package carries bytes: it never interprets the table protocol's
// messages. It bounds their size, checks that their pubsub author is a
// table member, and hands them to a validator supplied by package table.
//
// The wire formats this package owns (the table topics, the sync stream)
// are specified in protocol.md, section 7.
//
// Logging goes to a *slog.Logger passed in with WithLogger (never stdout);
// RouteLibraryLogs sends libp2p's, pubsub's and zeroconf's own logs to a
// handler of the caller's choice so a terminal UI can own the screen.
package p2p
