package tablemodel

import (
	"os/exec"
	"strings"
	"testing"
)

// forbidden are the packages the model must not reach, directly or through
// another package: the terminal's toolkit and its helpers (a front end
// draws the model; the model draws nothing), the terminal front end itself
// (ui imports the model, never the other way), and the network (the model
// reads snapshots, its peer speaks the protocol).
var forbidden = []string{
	"github.com/gdamore/tcell",
	"github.com/rivo/tview",
	"github.com/rivo/uniseg",
	"github.com/okey-game/okey/ui",
	"github.com/okey-game/okey/p2p",
	"github.com/libp2p/",
	"net/http",
}

// TestImportGraph: no package the model depends on, at any depth, is a
// terminal toolkit, the terminal front end, or the network: the web front
// end imports the model without them.
func TestImportGraph(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-test=false", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps gave %d packages: %q", len(deps), deps)
	}
	self := "github.com/okey-game/okey/ui/tablemodel"
	found := false
	for _, d := range deps {
		if d == self {
			found = true
			continue
		}
		for _, f := range forbidden {
			if d == f || strings.HasPrefix(d, strings.TrimSuffix(f, "/")+"/") || strings.HasSuffix(f, "/") && strings.HasPrefix(d, f) {
				t.Errorf("the model depends on %s (forbidden: %s)", d, f)
			}
		}
	}
	if !found {
		t.Errorf("go list -deps does not list the model itself: %q", deps)
	}
}
