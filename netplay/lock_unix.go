//go:build unix

package netplay

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockData takes an exclusive lock on the data directory for the life of
// the Client: two processes with one identity would be one peer id on two
// hosts, and would write the same match state.
func lockData(dir string) (release func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s", ErrDataInUse, dir)
		}
		return nil, fmt.Errorf("lan: lock %s: %w", dir, err)
	}
	return func() { f.Close() }, nil
}
