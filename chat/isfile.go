package chat

import (
	"io"
	"os"
)

// IsFile reports whether the file at path starts as a chat file does
// (FileMagic): okey verify skips it, as no part of a verdict (protocol.md
// 7.13). An unreadable file is not one.
func IsFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(FileMagic))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == FileMagic
}
