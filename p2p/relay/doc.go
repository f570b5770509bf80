// Package relay is okey's relay service and its client calls (protocol.md
// 7.11): a circuit relay v2 that is never open, admitting to reservations
// and circuits only the peers of the tables registered with it (a table's
// creator registers the table's token, with the relay's Key or by the
// operator's allow-list; each joiner presents the token; the creator's
// signed list of seated members narrows the table at its start), with a
// data-rate cap per peer and its state kept across restarts.
//
// New registers the admission protocol's stream handler on the host and
// starts the relay; Close removes both. Register, Join, Unregister and
// Members are a client's requests; a Key and the relay line (ParseLine,
// FormatLine) are how an operator hands the relay to the players.
//
// The package imports nothing of okey but p2p/internal/wire: any host can
// run it (okey relay, or a player's node with --serve-relay).
package relay
