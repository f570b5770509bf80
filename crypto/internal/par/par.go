// Package par splits index ranges over the available cores. The result of
// every function here depends only on its inputs, never on scheduling.
package par

import (
	"runtime"
	"sync"
)

// For calls f(lo, hi) on disjoint sub-ranges covering [0, n), in parallel
// over runtime.GOMAXPROCS goroutines, and returns when all have returned.
// Ranges smaller than min items are not split further.
func For(n, min int, f func(lo, hi int)) {
	if n <= 0 {
		return
	}
	workers := runtime.GOMAXPROCS(0)
	if min < 1 {
		min = 1
	}
	if max := n / min; workers > max {
		workers = max
	}
	if workers <= 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi)
		}()
	}
	wg.Wait()
}

// FirstFailure runs check on every index in [0, n) in parallel (as For) and
// returns the lowest index for which check returned an error, with that
// error, or (-1, nil). The answer does not depend on scheduling.
func FirstFailure(n, min int, check func(lo, hi int) (int, error)) (int, error) {
	var mu sync.Mutex
	bestIdx, bestErr := -1, error(nil)
	For(n, min, func(lo, hi int) {
		i, err := check(lo, hi)
		if err == nil {
			return
		}
		mu.Lock()
		if bestIdx < 0 || i < bestIdx {
			bestIdx, bestErr = i, err
		}
		mu.Unlock()
	})
	return bestIdx, bestErr
}
