//go:build !unix

package netplay

// lockData is a no-op where flock(2) does not exist.
func lockData(string) (func(), error) { return func() {}, nil }
