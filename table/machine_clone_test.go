package table

import (
	"bytes"
	"testing"
)

// TestMachineCloneIndependent: a clone and its original append to their
// nonces and hand logs without seeing each other's appends, even where the
// original has spare capacity (Machine.clone shares the elements).
func TestMachineCloneIndependent(t *testing.T) {
	m := &Machine{}
	m.nonces = append(make([][]byte, 0, 8), []byte("n0"))
	m.log = append(make([]HandLog, 0, 8), HandLog{Hand: 0})
	c := m.clone()
	c.nonces = append(c.nonces, []byte("clone"))
	c.log = append(c.log, HandLog{Hand: 1})
	if len(m.nonces) != 1 || len(m.log) != 1 {
		t.Fatal("the clone's append changed the original's length")
	}
	m.nonces = append(m.nonces, []byte("original"))
	m.log = append(m.log, HandLog{Hand: 2})
	if !bytes.Equal(c.nonces[1], []byte("clone")) || c.log[1].Hand != 1 {
		t.Fatalf("the original's append overwrote the clone's: %q, hand %d", c.nonces[1], c.log[1].Hand)
	}
	if !bytes.Equal(m.nonces[1], []byte("original")) || m.log[1].Hand != 2 {
		t.Fatal("the original lost its append")
	}
	if !bytes.Equal(c.nonces[0], []byte("n0")) || c.log[0].Hand != 0 {
		t.Fatal("the clone lost the original's elements")
	}
}
