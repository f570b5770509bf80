// Package wire holds what okey's p2p services share on the wire: the
// length-prefixed frame (uvarint length, then the bytes; protocol.md
// section 7), its bounds, and the table id check. It is internal to p2p:
// the node (package p2p) and the services beside it (p2p/lobby, p2p/relay,
// p2p/tournament) import it, nothing else does.
package wire
