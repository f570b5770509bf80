package chat

import (
	"os"
	"path/filepath"
	"testing"
)

// TestIsFile: a chat file (even with no message) is one; a transcript, a
// file shorter than the magic and a missing file are not.
func TestIsFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t"+FileSuffix)
	f, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if !IsFile(path) {
		t.Error("a chat file is not one")
	}
	for name, body := range map[string]string{"transcript": "okey-transcript/v1\n....", "short": FileMagic[:5]} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o600)
		if IsFile(p) {
			t.Errorf("%s: taken for a chat file", name)
		}
	}
	if IsFile(filepath.Join(dir, "missing")) {
		t.Error("a missing file is a chat file")
	}
}
