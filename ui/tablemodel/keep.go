package tablemodel

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/atomicfile"
	"github.com/okey-game/okey/internal/i18n"
)

// RackFile is the name of the file, in a match's directory, that keeps the
// player's rack arrangement, so that a resumed match shows the tiles where
// the player put them. The arrangement is the player's own business: it is
// kept beside the transcript, never in it.
const RackFile = "rack.json"

// rackState is the rack file: the hand it belongs to and, by rack position
// (row by row), the slot standing there or -1 for a gap.
type rackState struct {
	Version int   `json:"version"`
	Hand    int   `json:"hand"`
	Pos     []int `json:"pos"`
}

// readRackFile reads a rack file; a missing file is no arrangement.
func readRackFile(path string) (*rackState, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var st rackState
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("ui: %s: %v", RackFile, err)
	}
	if st.Version != 1 || len(st.Pos) != RackSize || st.Hand < 0 {
		return nil, fmt.Errorf("ui: %s: not a rack arrangement of this version", RackFile)
	}
	for _, p := range st.Pos {
		if p < -1 || p >= int(engine.NoSlot) {
			return nil, fmt.Errorf("ui: %s: bad slot %d", RackFile, p)
		}
	}
	return &st, nil
}

// SetRackFile makes the view keep the rack arrangement in path (written
// atomically whenever it changes) and brings back the one saved there when
// the hand it belongs to is on the table. Call it from the UI goroutine,
// before the match's first snapshot.
func (m *Table) SetRackFile(path string) {
	m.rackFile, m.keptHand = path, 0
	st, err := readRackFile(path)
	if err != nil {
		// A damaged arrangement is no loss: the tiles are laid out afresh.
		m.Refuse(i18n.T("the saved rack arrangement could not be read; the tiles are laid out afresh"))
		return
	}
	m.keptRack = st
}

// restoreRack puts the tiles back where the saved arrangement of this hand
// had them; it reports whether it did.
func (m *Table) restoreRack(slots []engine.Slot) bool {
	st := m.keptRack
	m.keptRack = nil
	if st == nil || st.Hand != m.handKey-1 {
		return false
	}
	var pos [RackSize]engine.Slot
	for i, p := range st.Pos {
		pos[i] = engine.NoSlot
		if p >= 0 {
			pos[i] = engine.Slot(p)
		}
	}
	return m.Rack.Restore(pos, slots)
}

// KeepRack writes the rack arrangement when it changed since it was last
// written (a front end calls it after every snapshot, key and click).
func (m *Table) KeepRack() {
	if m.rackFile == "" || m.handKey == 0 || !m.laidOut {
		return
	}
	pos := m.Rack.pos
	if m.keptHand == m.handKey && m.keptPos == pos {
		return
	}
	st := rackState{Version: 1, Hand: m.handKey - 1}
	for _, s := range pos {
		p := -1
		if s != engine.NoSlot {
			p = int(s)
		}
		st.Pos = append(st.Pos, p)
	}
	b, err := json.Marshal(&st)
	if err == nil {
		err = atomicfile.Write(m.rackFile, b)
	}
	if err != nil {
		if !m.keepFailed {
			m.Refuse(i18n.T("the rack arrangement could not be saved: %s", Explain(err)))
		}
		m.keepFailed = true
		return
	}
	m.keptHand, m.keptPos, m.keepFailed = m.handKey, pos, false
}
