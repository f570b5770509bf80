package shuffle

import "testing"

// TestPrepare: Prepare(n) makes the tables of n generators that proofs
// and checks use (n beyond any the package's tests made before), and does
// nothing for a size no shuffle may have.
func TestPrepare(t *testing.T) {
	count := func() (int, int, int) {
		gens.Lock()
		defer gens.Unlock()
		return len(gens.g), len(gens.gv), len(gens.gt)
	}
	g0, v0, f0 := count()
	Prepare(MaxSize + 1)
	Prepare(MinSize - 1)
	if g, v, f := count(); g != g0 || v != v0 || f != f0 {
		t.Errorf("Prepare out of range made tables: %d %d %d, before %d %d %d", g, v, f, g0, v0, f0)
	}
	n := max(g0, v0, f0, MinSize) + 8
	Prepare(n)
	if g, v, f := count(); g < n || v < n || f < n {
		t.Errorf("after Prepare(%d): %d generators, %d variable-time and %d fixed tables", n, g, v, f)
	}
}
