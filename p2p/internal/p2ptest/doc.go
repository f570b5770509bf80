// Package p2ptest holds test helpers shared by the tests of package p2p
// and of its services (p2p/lobby, p2p/relay, p2p/tournament): a logger
// that prints only when the test fails, and a wait with a deadline.
package p2ptest
