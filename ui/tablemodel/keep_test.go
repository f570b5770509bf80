package tablemodel

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/ui/tablemodel/modeltest"
)

// TestReadRackFileDamaged: a damaged or foreign rack file is an error, a
// missing one no arrangement.
func TestReadRackFileDamaged(t *testing.T) {
	dir := t.TempDir()
	for _, c := range modeltest.DamagedRackFiles {
		path := filepath.Join(dir, RackFile)
		if err := os.WriteFile(path, []byte(c), 0o600); err != nil {
			t.Fatal(err)
		}
		if st, err := readRackFile(path); err == nil {
			t.Errorf("%q read as %+v", c, st)
		}
		m := New()
		m.SetRackFile(path)
		if !m.MsgBad || m.Msg != "the saved rack arrangement could not be read; the tiles are laid out afresh" {
			t.Errorf("%q: message %q (bad %v)", c, m.Msg, m.MsgBad)
		}
	}
	if st, err := readRackFile(filepath.Join(dir, "none")); st != nil || err != nil {
		t.Errorf("a missing file: %v, %v", st, err)
	}
}

// TestRackKeptWithoutScreen: the model lays the dealt tiles out, keeps a
// moved tile's place in the rack file, and a new model of the same hand
// (a resumed match) stands the tiles where they were.
func TestRackKeptWithoutScreen(t *testing.T) {
	path := filepath.Join(t.TempDir(), RackFile)
	s := classicSnap(t, "K4", winningRack)
	m := New()
	m.SetRackFile(path)
	m.Update(s)
	if n := len(m.Rack.Tiles()); n != 15 {
		t.Fatalf("%d tiles laid out, want 15", n)
	}
	m.Rack.Cursor = 0
	m.Lift()
	m.Rack.MoveCursor(1, 0)
	m.Lift()
	if m.Msg != "tile moved" {
		t.Fatalf("after the move: %q", m.Msg)
	}
	m.KeepRack()
	want := m.Rack.Positions()
	m2 := New()
	m2.SetRackFile(path)
	m2.Update(s)
	if got := m2.Rack.Positions(); got != want {
		t.Fatalf("restored %v, want %v", got, want)
	}
	m3 := New()
	m3.Update(s)
	if m3.Rack.Positions() == want {
		t.Fatal("the move left the arrangement as laid out")
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
