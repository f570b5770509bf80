// Package table runs the okey table protocol: signed envelopes, lockstep
// ordering, the transcript, and its offline verification. It is transport
// agnostic: see Transport.
package table

import "context"

// PeerID names a table member: the string form of its libp2p peer id.
type PeerID string

// Packet is one message as received from the transport.
type Packet struct {
	// From is the transport's idea of the author (for gossipsub, the signed
	// author, not the last hop). The table protocol still checks the
	// envelope's own signature: From is a hint, never trusted.
	From PeerID
	Data []byte
}

// Transport carries the table's messages between its members. Delivery is
// best effort: messages may be lost, duplicated, delayed or reordered; the
// protocol's step numbers, reorder buffer and Fetch recover from all of that.
type Transport interface {
	// Self is this member's id.
	Self() PeerID
	// Broadcast sends data to every other member. It returns an error only
	// when the transport is closed or ctx ends; loss is silent.
	Broadcast(ctx context.Context, data []byte) error
	// Inbox delivers messages from the other members. It is closed by Close.
	Inbox() <-chan Packet
	// Fetch asks one member directly for data (catch-up after loss or a
	// restart): the request and the frames in the answer are table protocol
	// messages; the transport only bounds their size and time.
	Fetch(ctx context.Context, peer PeerID, req []byte) ([][]byte, error)
	// Serve installs the handler that answers other members' Fetch calls.
	Serve(h func(from PeerID, req []byte) [][]byte)
	// Close stops the transport.
	Close() error
}
