package netplay

import (
	"testing"

	"github.com/okey-game/okey/p2p/lobby"
)

// FuzzTableConfig: whatever announcement arrives from the lobby, deriving a
// table config never panics, and a config it returns is valid, uses the
// canonical ruleset and is derived again identically (every member must
// build the same one).
func FuzzTableConfig(f *testing.F) {
	a, _ := startedAnnouncement(f, 3, "turkish-rummy", map[string]string{"rounds": "1", "timer": "30"})
	good, err := a.Encode()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"v":3}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := lobby.DecodeAnnouncement(b)
		if err != nil {
			return
		}
		cfg, err := TableConfig(a)
		if err != nil {
			return
		}
		if err := cfg.Validate(); err != nil {
			t.Fatalf("derived an invalid config: %v", err)
		}
		if r, err := Ruleset(a); err != nil || r.String() != cfg.Ruleset {
			t.Fatalf("ruleset %q is not canonical (%v)", cfg.Ruleset, err)
		}
		again, err := TableConfig(a)
		if err != nil || again.Hash() != cfg.Hash() {
			t.Fatal("the same announcement derives another config")
		}
	})
}
