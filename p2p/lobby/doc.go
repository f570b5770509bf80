// Package lobby is okey's table lobby on a p2p.Node (protocol.md 7.5, 7.6
// and 7.10): the gossip topic where creators announce their tables, and
// the stream protocol by which players join, leave and ready up at a
// table's creator, whose Formation decides and re-announces at once; the
// "started" announcement gives everyone the final roster. A private table
// admits by invite code only (package p2p/invite), through the node's
// relays when a joiner cannot reach the creator directly; the lobby keeps
// a TableState per table (its nonce, a private table's secret, the code
// joined by) in Config.States.
//
// New joins the topic and registers the protocol's handler on the node's
// host (p2p.Node.Base); Close announces this node's open tables closed
// and removes both. The node does not know the lobby: close the lobby
// first.
package lobby
