package page

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// terminal are the packages of the terminal front end: its toolkit, with
// its terminfo tables, and okey's ui itself (its model, ui/tablemodel, is
// what the verifier may use).
var terminal = []string{
	"github.com/gdamore/tcell",
	"github.com/rivo/tview",
	"github.com/okey-game/okey/ui",
}

// TestWasmImportsNoTerminal: the page's verifier (./wasm, built for js/wasm
// as make build does) and verdict depend, at any depth, on no terminal
// package: tview and tcell cost it 0.7 MB (see the package doc's sizes).
func TestWasmImportsNoTerminal(t *testing.T) {
	for _, c := range []struct {
		pkg  string
		wasm bool
	}{{"./wasm", true}, {"github.com/okey-game/okey/verdict", true}, {"github.com/okey-game/okey/verdict", false}, {".", false}} {
		cmd := exec.Command("go", "list", "-deps", "-test=false", c.pkg)
		if c.wasm {
			cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps %s (wasm %v): %v", c.pkg, c.wasm, err)
		}
		deps := strings.Fields(string(out))
		if !slices.Contains(deps, "github.com/okey-game/okey/table") {
			t.Fatalf("go list -deps %s does not list table: %q", c.pkg, deps)
		}
		for _, d := range deps {
			for _, f := range terminal {
				if d == f || strings.HasPrefix(d, f+"/") && f != "github.com/okey-game/okey/ui" {
					t.Errorf("%s (wasm %v) depends on %s", c.pkg, c.wasm, d)
				}
			}
		}
	}
}
