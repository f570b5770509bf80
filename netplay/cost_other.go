//go:build !unix

package netplay

// processCost is zero where getrusage is missing.
func processCost() (peakRSS, userMS, systemMS int64) { return 0, 0, 0 }
