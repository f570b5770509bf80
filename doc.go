// Package okey is the map of the house: it holds no code, only this
// description and the test that keeps the layers (layers_test.go).
//
// The packages, from the bottom up:
//
//   - engine: the rules of Okey as a deterministic state machine (tiles,
//     hands, rulesets). Pure: the standard library only.
//   - crypto/...: the mental-poker deck (group, dleq, shuffle, deck, commit,
//     blame). Pure: the standard library and the curve only.
//   - rating, stats: pure arithmetic on verified matches (a player's
//     rating and record); stats/collect finds, verifies and caches the
//     transcripts okey stats reads.
//   - table: the table protocol (signed envelopes, lockstep order, the
//     transcript, its offline verification) and the stores of a match (a
//     seat's DirStore, a local match's folder).
//   - tournament: the verifiable core of a Swiss tournament (records, draw,
//     pairing, standings); tournament/participant drives one participant
//     over a Net (its records, its tables, the folder, the lobby's
//     tournament Service).
//   - bot: the strategies that choose a seat's moves.
//   - p2p: the network node (libp2p host, identity, discovery, table
//     topics, sync, spectators, links, reach, a node's relays); beside it,
//     each a service on the node's Base: p2p/lobby the lobby and table
//     formation, p2p/relay the relay service and its client calls,
//     p2p/tournament the tournament topic and transcript fetches;
//     p2p/invite the invite code; p2p/internal/wire the frame, bounds and
//     stream gate the services share.
//   - netplay: the player's side of network play: a lobby table becomes a
//     table config, a match played over p2p with persistence and resume,
//     a watched match, the house bots, the tournament topic as a
//     participant.Net.
//   - ui: the terminal front end (the table, the replay, the lobby).
//   - cmd/okey: the command: flags, wiring, printing, the ui's adapters.
//   - docs: the documents the command prints, in English and Turkish: the
//     rules and each command's help text.
//
// The layers (TestLayers): engine and crypto are pure; ui and table never
// reach p2p; internal/ packages are leaves; rating and stats are pure
// arithmetic; tournament reaches only engine and its curve; and only the
// front ends' wiring (cmd/okey, and a web front end's server once there is
// one) imports both a front end (ui) and the network play package
// (netplay); internal/browsertest, the browser tests' Chromium, is for
// _test.go files alone.
package okey
