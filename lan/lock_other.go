//go:build !unix

package lan

// lockData is a no-op where flock(2) does not exist.
func lockData(string) (func(), error) { return func() {}, nil }
