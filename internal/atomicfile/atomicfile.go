// Package atomicfile writes small files so that a crash leaves either the
// old content or the new, never a part: the data goes to a temporary file
// in the same directory, is synced, and then takes the final name.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write writes data to path with mode 0600, replacing what was there.
func Write(path string, data []byte) error {
	return write(path, data, os.Rename)
}

// WriteNew is Write for a file that must not exist yet: it fails with an
// error matching fs.ErrExist when path exists, and never replaces it.
func WriteNew(path string, data []byte) error {
	return write(path, data, os.Link)
}

func write(path string, data []byte, place func(oldname, newname string) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer os.Remove(name)
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return place(name, path)
}
