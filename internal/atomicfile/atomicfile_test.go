package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	for _, content := range []string{"first", "second"} {
		if err := Write(p, []byte(content)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(p)
		if err != nil || string(got) != content {
			t.Fatalf("read %q, %v; want %q", got, err, content)
		}
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
	if err := WriteNew(p, []byte("third")); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("WriteNew over an existing file: %v", err)
	}
	if got, _ := os.ReadFile(p); string(got) != "second" {
		t.Fatalf("WriteNew changed the file: %q", got)
	}
	q := filepath.Join(dir, "g")
	if err := WriteNew(q, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Fatalf("temporary files left: %v", ents)
	}
	if err := Write(filepath.Join(dir, "missing", "f"), nil); err == nil {
		t.Fatal("wrote into a missing directory")
	}
}
