package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/ui/tablemodel/modeltest"
)

func TestRackFileKeepsAndRestores(t *testing.T) {
	path := filepath.Join(t.TempDir(), RackFile)
	hs := newHarness(t, fixture(t, "K4", winningRack), Palette16)
	hs.view.SetRackFile(path)
	hs.keys(" ")
	hs.key(tcell.KeyRight, 0)
	hs.keys(" ")
	want := hs.view.m.Rack.Positions()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("moving a tile did not write the rack file: %v", err)
	}
	// A new view of the same hand (a resumed match) stands the tiles where
	// they were.
	s := hs.view.m.Snap
	hs2 := newHarness(t, nil, Palette16)
	hs2.view.SetRackFile(path)
	hs2.view.Update(s, nil, nil)
	if hs2.view.m.Rack.Positions() != want {
		t.Fatalf("restored %v, want %v", hs2.view.m.Rack.Positions(), want)
	}
	// Another hand's arrangement is not applied.
	if err := os.WriteFile(path, []byte(strings.Replace(mustRead(t, path), `"hand":0`, `"hand":3`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	hs3 := newHarness(t, nil, Palette16)
	hs3.view.SetRackFile(path)
	hs3.view.Update(s, nil, nil)
	if hs3.view.m.Rack.Positions() == want {
		t.Fatal("an arrangement of another hand was applied")
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestRackFileDamaged(t *testing.T) {
	dir := t.TempDir()
	for _, c := range modeltest.DamagedRackFiles {
		path := filepath.Join(dir, RackFile)
		if err := os.WriteFile(path, []byte(c), 0o600); err != nil {
			t.Fatal(err)
		}
		hs := newHarness(t, fixture(t, "K4", winningRack), Palette16)
		hs.view.SetRackFile(path)
		if !strings.Contains(hs.view.Message(), "laid out afresh") {
			t.Errorf("%q: message %q", c, hs.view.Message())
		}
	}
}
