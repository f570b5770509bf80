package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/engine"
)

func TestRackFileKeepsAndRestores(t *testing.T) {
	path := filepath.Join(t.TempDir(), RackFile)
	hs := newHarness(t, fixture(t, "K4", winningRack), Palette16)
	hs.view.SetRackFile(path)
	hs.keys(" ")
	hs.key(tcell.KeyRight, 0)
	hs.keys(" ")
	want := hs.view.rack.pos
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("moving a tile did not write the rack file: %v", err)
	}
	// A new view of the same hand (a resumed match) stands the tiles where
	// they were.
	s := hs.view.m.Snap
	hs2 := newHarness(t, nil, Palette16)
	hs2.view.SetRackFile(path)
	hs2.view.Update(s, nil, nil)
	if hs2.view.rack.pos != want {
		t.Fatalf("restored %v, want %v", hs2.view.rack.pos, want)
	}
	// Another hand's arrangement is not applied.
	if err := os.WriteFile(path, []byte(strings.Replace(mustRead(t, path), `"hand":0`, `"hand":3`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	hs3 := newHarness(t, nil, Palette16)
	hs3.view.SetRackFile(path)
	hs3.view.Update(s, nil, nil)
	if hs3.view.rack.pos == want {
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
	for _, c := range []string{``, `{`, `{"version":2,"hand":0,"pos":[]}`, `{"version":1,"hand":-1,"pos":[]}`,
		`{"version":1,"hand":0,"pos":[1,2]}`,
		`{"version":1,"hand":0,"pos":[255,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1]}`} {
		path := filepath.Join(dir, RackFile)
		if err := os.WriteFile(path, []byte(c), 0o600); err != nil {
			t.Fatal(err)
		}
		if st, err := readRackFile(path); err == nil {
			t.Errorf("%q read as %+v", c, st)
		}
		hs := newHarness(t, fixture(t, "K4", winningRack), Palette16)
		hs.view.SetRackFile(path)
		if !strings.Contains(hs.view.Message(), "laid out afresh") {
			t.Errorf("%q: message %q", c, hs.view.Message())
		}
	}
	if st, err := readRackFile(filepath.Join(dir, "none")); st != nil || err != nil {
		t.Errorf("a missing file: %v, %v", st, err)
	}
}

func TestRackRestoreRefusesDuplicates(t *testing.T) {
	r := NewRack()
	var pos [RackSize]engine.Slot
	for i := range pos {
		pos[i] = engine.NoSlot
	}
	pos[0], pos[1] = 3, 3
	if r.Restore(pos, []engine.Slot{3}) || len(r.Tiles()) != 0 {
		t.Fatalf("a slot twice was restored: %v", r.Tiles())
	}
}

func FuzzRackFile(f *testing.F) {
	f.Add([]byte(`{"version":1,"hand":0,"pos":[-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,3]}`))
	f.Add([]byte(`{}`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(dir, RackFile)
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		st, err := readRackFile(path)
		if err != nil {
			return
		}
		if len(st.Pos) != RackSize {
			t.Fatalf("accepted %d positions", len(st.Pos))
		}
		var pos [RackSize]engine.Slot
		for i, p := range st.Pos {
			if p < -1 || p >= int(engine.NoSlot) {
				t.Fatalf("accepted slot %d", p)
			}
			pos[i] = engine.NoSlot
			if p >= 0 {
				pos[i] = engine.Slot(p)
			}
		}
		r := NewRack()
		r.Restore(pos, []engine.Slot{0, 1, 2, 3})
	})
}
