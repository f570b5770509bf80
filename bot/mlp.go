package bot

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Net is a small multilayer perceptron over binary features: the input is
// the list of active feature indices (every feature is 0 or 1), two hidden
// layers with ReLU, and two outputs: the logit of the chance that the seat
// wins the hand, and its expected score change (in units of the ruleset's
// base win). It is a player's evaluation, not game logic: floats are
// allowed here, and every operation runs in a fixed order, so the same
// weights and input give the same output on one architecture.
type Net struct {
	In, H1, H2 int
	W1         []float32 // In x H1, row i is input i's column of weights
	B1         []float32 // H1
	W2         []float32 // H1 x H2
	B2         []float32 // H2
	W3         []float32 // H2 x 2
	B3         []float32 // 2
}

// netOut is the number of outputs: the win logit and the score.
const netOut = 2

// NewNet returns a net of the given sizes with weights drawn from seed
// (He initialisation).
func NewNet(in, h1, h2 int, seed uint64) *Net {
	rng := rand.New(rand.NewPCG(seed, 0x6e6574))
	n := &Net{In: in, H1: h1, H2: h2,
		W1: make([]float32, in*h1), B1: make([]float32, h1),
		W2: make([]float32, h1*h2), B2: make([]float32, h2),
		W3: make([]float32, h2*netOut), B3: make([]float32, netOut)}
	// The inputs are sparse (about 20 of ~140 active): scale for the active
	// count rather than the fan-in.
	fill := func(w []float32, fan float64) {
		s := math.Sqrt(2 / fan)
		for i := range w {
			w[i] = float32(rng.NormFloat64() * s)
		}
	}
	fill(n.W1, 20)
	fill(n.W2, float64(h1))
	fill(n.W3, float64(h2))
	return n
}

// Eval returns the net's outputs for the active inputs: the win chance
// (0-1) and the expected score.
func (n *Net) Eval(active []uint16) (win, score float64) {
	var a1buf, a2buf [128]float32
	a1, a2 := a1buf[:0], a2buf[:0]
	if n.H1 > len(a1buf) || n.H2 > len(a2buf) {
		a1, a2 = make([]float32, 0, n.H1), make([]float32, 0, n.H2)
	}
	a1 = append(a1, n.B1...)
	for _, i := range active {
		row := n.W1[int(i)*n.H1 : int(i+1)*n.H1]
		for j := range a1 {
			a1[j] += row[j]
		}
	}
	for j := range a1 {
		a1[j] = max(0, a1[j])
	}
	a2 = append(a2, n.B2...)
	for j, x := range a1 {
		if x == 0 {
			continue
		}
		row := n.W2[j*n.H2 : (j+1)*n.H2]
		for k := range a2 {
			a2[k] += x * row[k]
		}
	}
	o := [netOut]float32{n.B3[0], n.B3[1]}
	for k, x := range a2 {
		if x <= 0 {
			continue
		}
		o[0] += x * n.W3[k*netOut]
		o[1] += x * n.W3[k*netOut+1]
	}
	return sigmoid(float64(o[0])), float64(o[1])
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// Sample is one training example: the active inputs and the Monte-Carlo
// return of the hand that followed (won: 1 or 0; score: the seat's score
// change in units of the base win, signed so that higher is better).
type Sample struct {
	Active []uint16
	Won    float32
	Score  float32
}

// TrainConfig says how Net.Train fits samples.
type TrainConfig struct {
	Epochs int
	Batch  int     // samples a step (0: 64)
	LR     float64 // Adam's step (0: 0.001)
	// ScoreWeight weighs the score's squared error against the win's
	// cross-entropy (0: 0.25).
	ScoreWeight float64
	Seed        uint64 // the order of the samples in each epoch
}

// adam holds the optimiser's moments, one slice per weight slice.
type adam struct {
	m, v [][]float32
	t    int
}

// params returns the net's weight slices in a fixed order.
func (n *Net) params() [][]float32 { return [][]float32{n.W1, n.B1, n.W2, n.B2, n.W3, n.B3} }

// Train fits the net to the samples by Adam on mini-batches and returns
// the mean loss of each epoch (win cross-entropy plus ScoreWeight times the
// score's squared error). It is single-threaded and deterministic for a
// seed.
func (n *Net) Train(samples []Sample, cfg TrainConfig) []float64 {
	if cfg.Batch <= 0 {
		cfg.Batch = 64
	}
	if cfg.LR <= 0 {
		cfg.LR = 0.001
	}
	if cfg.ScoreWeight <= 0 {
		cfg.ScoreWeight = 0.25
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x747261696e))
	ps := n.params()
	grads := make([][]float32, len(ps))
	opt := &adam{m: make([][]float32, len(ps)), v: make([][]float32, len(ps))}
	for i, p := range ps {
		grads[i] = make([]float32, len(p))
		opt.m[i] = make([]float32, len(p))
		opt.v[i] = make([]float32, len(p))
	}
	order := make([]int, len(samples))
	for i := range order {
		order[i] = i
	}
	a1, a2 := make([]float32, n.H1), make([]float32, n.H2)
	d1, d2 := make([]float32, n.H1), make([]float32, n.H2)
	var losses []float64
	// touched lists the input rows of W1 with a gradient in this batch.
	touched := make([]bool, n.In)
	var rows []int
	for ep := 0; ep < cfg.Epochs; ep++ {
		rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		total := 0.0
		for start := 0; start < len(order); start += cfg.Batch {
			end := min(len(order), start+cfg.Batch)
			for _, g := range grads[1:] {
				clear(g)
			}
			for _, r := range rows {
				clear(grads[0][r*n.H1 : (r+1)*n.H1])
				touched[r] = false
			}
			rows = rows[:0]
			for _, si := range order[start:end] {
				s := &samples[si]
				act := s.Active
				// Forward.
				copy(a1, n.B1)
				for _, i := range act {
					row := n.W1[int(i)*n.H1 : int(i+1)*n.H1]
					for j := range a1 {
						a1[j] += row[j]
					}
				}
				for j := range a1 {
					a1[j] = max(0, a1[j])
				}
				copy(a2, n.B2)
				for j, x := range a1 {
					if x == 0 {
						continue
					}
					row := n.W2[j*n.H2 : (j+1)*n.H2]
					for k := range a2 {
						a2[k] += x * row[k]
					}
				}
				for k := range a2 {
					a2[k] = max(0, a2[k])
				}
				o0, o1 := n.B3[0], n.B3[1]
				for k, x := range a2 {
					o0 += x * n.W3[k*netOut]
					o1 += x * n.W3[k*netOut+1]
				}
				p := sigmoid(float64(o0))
				y := float64(s.Won)
				total += -(y*math.Log(max(p, 1e-9)) + (1-y)*math.Log(max(1-p, 1e-9)))
				e := float64(o1) - float64(s.Score)
				total += cfg.ScoreWeight * e * e
				// Backward.
				g0 := float32(p - y)
				g1 := float32(2 * cfg.ScoreWeight * e)
				gw3, gb3 := grads[4], grads[5]
				gb3[0] += g0
				gb3[1] += g1
				for k, x := range a2 {
					gw3[k*netOut] += x * g0
					gw3[k*netOut+1] += x * g1
					if x > 0 {
						d2[k] = g0*n.W3[k*netOut] + g1*n.W3[k*netOut+1]
					} else {
						d2[k] = 0
					}
				}
				gw2, gb2 := grads[2], grads[3]
				for k, d := range d2 {
					gb2[k] += d
				}
				for j, x := range a1 {
					d1[j] = 0
					if x == 0 {
						continue
					}
					row := n.W2[j*n.H2 : (j+1)*n.H2]
					grow := gw2[j*n.H2 : (j+1)*n.H2]
					var s float32
					for k, d := range d2 {
						grow[k] += x * d
						s += row[k] * d
					}
					d1[j] = s
				}
				gb1 := grads[1]
				for j, d := range d1 {
					gb1[j] += d
				}
				for _, i := range act {
					if !touched[i] {
						touched[i] = true
						rows = append(rows, int(i))
					}
					grow := grads[0][int(i)*n.H1 : int(i+1)*n.H1]
					for j, d := range d1 {
						grow[j] += d
					}
				}
			}
			opt.step(ps, grads, rows, n.H1, float32(cfg.LR), float32(1/float64(end-start)))
		}
		losses = append(losses, total/float64(max(1, len(samples))))
	}
	return losses
}

// step applies one Adam update; W1 (ps[0]) only on the rows with a
// gradient (a lazy, sparse update), the rest in full.
func (o *adam) step(ps, grads [][]float32, rows []int, h1 int, lr, scale float32) {
	const b1, b2, eps = 0.9, 0.999, 1e-8
	o.t++
	c1 := float32(1 - math.Pow(b1, float64(o.t)))
	c2 := float32(1 - math.Pow(b2, float64(o.t)))
	upd := func(p, g, m, v []float32) {
		for i := range p {
			gi := g[i] * scale
			m[i] = b1*m[i] + (1-b1)*gi
			v[i] = b2*v[i] + (1-b2)*gi*gi
			p[i] -= lr * (m[i] / c1) / (float32(math.Sqrt(float64(v[i]/c2))) + eps)
		}
	}
	for _, r := range rows {
		lo, hi := r*h1, (r+1)*h1
		upd(ps[0][lo:hi], grads[0][lo:hi], o.m[0][lo:hi], o.v[0][lo:hi])
	}
	for i := 1; i < len(ps); i++ {
		upd(ps[i], grads[i], o.m[i], o.v[i])
	}
}

// netMagic starts a net's file.
const netMagic = "okeynet1"

// ErrNet is returned (wrapped) for a net file that cannot be read.
var ErrNet = errors.New("bot: bad net file")

// MarshalBinary encodes the net: the magic, the three sizes (uint32 little
// endian) and every weight (float32 little endian) in the order W1 B1 W2 B2
// W3 B3.
func (n *Net) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(netMagic)
	for _, x := range []int{n.In, n.H1, n.H2} {
		_ = binary.Write(&b, binary.LittleEndian, uint32(x))
	}
	for _, p := range n.params() {
		_ = binary.Write(&b, binary.LittleEndian, p)
	}
	return b.Bytes(), nil
}

// UnmarshalBinary decodes what MarshalBinary encodes; on error n is left
// unchanged.
func (n *Net) UnmarshalBinary(data []byte) error {
	if len(data) < len(netMagic)+12 || string(data[:len(netMagic)]) != netMagic {
		return fmt.Errorf("%w: no %s header", ErrNet, netMagic)
	}
	r := bytes.NewReader(data[len(netMagic):])
	var dims [3]uint32
	_ = binary.Read(r, binary.LittleEndian, &dims)
	in, h1, h2 := int(dims[0]), int(dims[1]), int(dims[2])
	if in < 1 || in > 1<<12 || h1 < 1 || h1 > 512 || h2 < 1 || h2 > 512 {
		return fmt.Errorf("%w: sizes %d, %d, %d", ErrNet, in, h1, h2)
	}
	want := (in*h1 + h1 + h1*h2 + h2 + h2*netOut + netOut) * 4
	if r.Len() != want {
		return fmt.Errorf("%w: %d bytes of weights, want %d for sizes %d, %d, %d", ErrNet, r.Len(), want, in, h1, h2)
	}
	m := &Net{In: in, H1: h1, H2: h2,
		W1: make([]float32, in*h1), B1: make([]float32, h1),
		W2: make([]float32, h1*h2), B2: make([]float32, h2),
		W3: make([]float32, h2*netOut), B3: make([]float32, netOut)}
	for _, p := range m.params() {
		_ = binary.Read(r, binary.LittleEndian, p)
		for _, x := range p {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return fmt.Errorf("%w: a weight is not a finite number", ErrNet)
			}
		}
	}
	*n = *m
	return nil
}
