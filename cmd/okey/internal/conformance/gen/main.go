// Command gen writes okey's conformance suite (protocol.md 8) from fixed
// seeds: `go run ./cmd/okey/internal/conformance/gen DIR` (make conformance).
// With -freeze-tournaments it plays the tournament cases' two base
// folders anew (crypto/rand draws and deals: done once, then kept).
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/okey-game/okey/cmd/okey/internal/conformance"
	"github.com/okey-game/okey/tournament"
)

func main() {
	args := os.Args[1:]
	freeze := len(args) == 2 && args[0] == "-freeze-tournaments"
	if freeze {
		args = args[1:]
	}
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: gen [-freeze-tournaments] DIR")
		os.Exit(2)
	}
	dir := args[0]
	if freeze {
		for _, b := range []struct {
			name    string
			version int
		}{{conformance.TournamentBase, tournament.Version2}, {conformance.TournamentBaseV1, tournament.Version1}} {
			out := filepath.Join(dir, conformance.TournamentDir, b.name)
			if err := os.RemoveAll(out); err != nil {
				fmt.Fprintln(os.Stderr, "gen:", err)
				os.Exit(1)
			}
			if err := conformance.FreezeTournament(out, 6, "swiss:rounds=2", "classic:points=2", b.version); err != nil {
				fmt.Fprintln(os.Stderr, "gen:", err)
				os.Exit(1)
			}
		}
	}
	if err := conformance.Generate(dir, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
