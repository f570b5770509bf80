package table

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestReviewNodeScripts runs the adversarial review's node scripts
// (testdata/review): each is a case where the node diverges from
// protocol.md, written as protocol.md says it must go.
func TestReviewNodeScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "review", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) {
			runScript(t, f)
		})
	}
}
