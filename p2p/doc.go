// Package p2p is okey's network layer: a libp2p host (TCP and QUIC, Noise,
// Yamux), a persistent identity, peer discovery (mDNS on the LAN with okey's
// own service name, or static --peer addresses), a gossipsub lobby where
// tables are announced and formed, one gossipsub topic per table, and a
// direct stream protocol for catch-up. TableTransport implements
// table.Transport.
//
// Beyond one LAN: a private table (Lobby.CreatePrivate) admits only joiners
// that prove they hold its invite code's secret (package p2p/invite); a
// joiner reaches the creator from the code alone (Lobby.JoinByCode,
// Node.DialCode: local addresses, then direct, then through a relay), and
// the members learn each other's addresses from the creator
// (Lobby.LearnMemberAddrs). The lobby keeps a record per table with the
// node's data (WithTableStates): the nonce, a private table's secret, the
// code joined by.
//
// The package carries bytes: it never interprets the table protocol's
// messages. It bounds their size, checks that their pubsub author is a
// table member, and hands them to a validator supplied by package table.
//
// The wire formats this package owns (lobby announcements, lobby requests,
// the sync stream framing) are specified in protocol.md, section 7.
//
// Logging goes to a *slog.Logger passed in with WithLogger (never stdout);
// RouteLibraryLogs sends libp2p's, pubsub's and zeroconf's own logs to a
// handler of the caller's choice so a terminal UI can own the screen.
package p2p
