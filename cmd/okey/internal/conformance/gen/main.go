// Command gen writes okey's conformance suite (protocol.md 8) from fixed
// seeds: `go run ./cmd/okey/internal/conformance/gen DIR` (make conformance).
package main

import (
	"fmt"
	"os"

	"github.com/okey-game/okey/cmd/okey/internal/conformance"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen DIR")
		os.Exit(2)
	}
	if err := conformance.Generate(os.Args[1], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
