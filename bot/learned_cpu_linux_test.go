package bot

import (
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"
)

// threadCPU returns the CPU time the calling thread has used.
func threadCPU(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	const rusageThread = 1 // RUSAGE_THREAD
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkLearnedMoveCPU is BenchmarkLearnedMove timed by the thread's
// CPU time, not the wall clock: on a machine loaded by other work the wall
// clock counts the time the thread waited for a core. It reports the mean
// and the 95th percentile (ms) of the CPU a decision takes (the kernel
// accounts CPU time at a coarser grain than the wall clock, so a single
// decision's figure is rough; the mean over many is not).
func BenchmarkLearnedMoveCPU(b *testing.B) {
	pos := greedyPositions(b, "classic", 8, false)
	l, err := NewLearned(1)
	if err != nil {
		b.Fatal(err)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	times := make([]time.Duration, 0, b.N)
	var total time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := &pos[i%len(pos)]
		t0 := threadCPU(b)
		if _, err := l.Move(&p.h, &p.v); err != nil {
			b.Fatal(err)
		}
		d := threadCPU(b) - t0
		times = append(times, d)
		total += d
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(total)/float64(b.N)/1e6, "cpu-ms/op")
	b.ReportMetric(float64(times[len(times)*95/100])/1e6, "cpu-p95-ms")
}
