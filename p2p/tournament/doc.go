// Package tournament is the network side of okey's tournaments
// (protocol.md 9.8): one gossip topic carries every tournament's signed
// records, the participants' offers of finished transcripts and admitted
// registrations, and a stream protocol fetches a transcript from a
// participant that offered it.
//
// Join subscribes to the topic and registers the fetch protocol's handler
// on a p2p.Node's host; Close removes both. It carries bytes: the records'
// meaning is package okey/tournament's, the driver is
// okey/tournament/participant's (through netplay's adapter).
package tournament
