//go:build unix

package netplay

import (
	"runtime"
	"syscall"
	"time"
)

// processCost is this process's peak resident set size in bytes and its
// user and system CPU time in milliseconds (getrusage; zeros on error).
func processCost() (peakRSS, userMS, systemMS int64) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0, 0
	}
	peakRSS = int64(ru.Maxrss)
	if runtime.GOOS != "darwin" && runtime.GOOS != "ios" {
		peakRSS *= 1024 // kilobytes everywhere but Apple's systems
	}
	return peakRSS, time.Duration(ru.Utime.Nano()).Milliseconds(), time.Duration(ru.Stime.Nano()).Milliseconds()
}
