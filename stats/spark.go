package stats

import (
	"math"
	"strings"
)

// sparks are the eight heights of a sparkline, lowest first.
var sparks = []rune("▁▂▃▄▅▆▇█")

// Sparkline draws vals as one line of at most width block characters, the
// lowest value as the lowest block and the highest as the highest. With
// more values than width, each character is the mean of a run of
// consecutive values (the runs as even as they can be). A flat series is
// drawn at mid height; NaNs and infinities are left out of the scale and
// drawn as spaces. No values, or width < 1, give "".
func Sparkline(vals []float64, width int) string {
	if len(vals) == 0 || width < 1 {
		return ""
	}
	vals = Resample(vals, width)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		if isFinite(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	var b strings.Builder
	for _, v := range vals {
		switch {
		case !isFinite(v):
			b.WriteByte(' ')
		case hi == lo:
			b.WriteRune(sparks[len(sparks)/2-1])
		default:
			i := int(math.Round((v - lo) / (hi - lo) * float64(len(sparks)-1)))
			b.WriteRune(sparks[i])
		}
	}
	return b.String()
}

// Resample returns vals in at most n points: vals itself when it fits,
// else the means of n runs of consecutive values, run i being
// vals[i*len/n : (i+1)*len/n] (non-finite values left out of a mean; a run
// of only those stays NaN).
func Resample(vals []float64, n int) []float64 {
	if n < 1 {
		return nil
	}
	if len(vals) <= n {
		return vals
	}
	out := make([]float64, n)
	for i := range out {
		lo, hi := i*len(vals)/n, (i+1)*len(vals)/n
		sum, k := 0.0, 0
		for _, v := range vals[lo:hi] {
			if isFinite(v) {
				sum += v
				k++
			}
		}
		out[i] = math.NaN()
		if k > 0 {
			out[i] = sum / float64(k)
		}
	}
	return out
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
