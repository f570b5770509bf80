// Package wire holds what okey's node (package p2p) and the services
// beside it (p2p/lobby, p2p/relay, p2p/tournament) share: the
// length-prefixed frame (uvarint length, then the bytes; protocol.md
// section 7) and its bounds, the fair stream Gate (a creator's lobby
// streams, a member's spectators' sync streams), the table id and peer
// address checks, closing a topic, and reading a private file (an
// identity, a table's state). It is internal to p2p: p2p/relay imports
// nothing else of okey.
package wire
