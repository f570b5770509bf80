package web

import (
	"io/fs"
	"testing"
)

// TestPageWeight: the page's files (everything the browser loads: no
// WebAssembly here) weigh under 500 KB; the figure is logged.
func TestPageWeight(t *testing.T) {
	total := 0
	files := 0
	err := fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(static, p)
		if err != nil {
			return err
		}
		total += len(b)
		files++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 5 || total == 0 {
		t.Fatalf("%d files, %d bytes: is the walk broken?", files, total)
	}
	if total > 500_000 {
		t.Errorf("the page weighs %d bytes, over 500 KB", total)
	}
	t.Logf("figure: the page weighs %d bytes (%.1f KB) in %d files, uncompressed, no WebAssembly", total, float64(total)/1024, files)
}
