//go:build linux

package main

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// impairment is what a link does to each packet, each way.
type impairment struct {
	Delay  time.Duration // added to every packet
	Jitter time.Duration // plus a uniform amount in [-Jitter, +Jitter] (never below 0 in all)
	Loss   float64       // probability a packet is dropped
	Dup    float64       // probability a packet that passes is delivered twice
}

func (im impairment) String() string {
	return fmt.Sprintf("delay=%v jitter=%v loss=%g%% dup=%g%%", im.Delay, im.Jitter, im.Loss*100, im.Dup*100)
}

// parseImpairment reads "delay=25ms jitter=5ms loss=0.5% dup=0%" (any
// subset, space or comma separated; a percentage or a fraction).
func parseImpairment(s string) (impairment, error) {
	var im impairment
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\n' || r == '\t' }) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return impairment{}, fmt.Errorf("impairment %q: want key=value", f)
		}
		switch k {
		case "delay", "jitter":
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 || d > 10*time.Second {
				return impairment{}, fmt.Errorf("impairment %s=%q: want a duration in [0, 10s]", k, v)
			}
			if k == "delay" {
				im.Delay = d
			} else {
				im.Jitter = d
			}
		case "loss", "dup":
			scale := 1.0
			if t, ok := strings.CutSuffix(v, "%"); ok {
				v, scale = t, 0.01
			}
			p, err := strconv.ParseFloat(v, 64)
			if err != nil || p*scale < 0 || p*scale > 1 {
				return impairment{}, fmt.Errorf("impairment %s=%q: want a probability", k, v)
			}
			if k == "loss" {
				im.Loss = p * scale
			} else {
				im.Dup = p * scale
			}
		default:
			return impairment{}, fmt.Errorf("impairment: unknown key %q", k)
		}
	}
	return im, nil
}

// scheduler decides, per packet, whether and when it is delivered. Packets
// leave in the order they came (no reordering: a later packet with less
// jitter waits for the earlier one), as on one link.
type scheduler struct {
	rng  *rand.Rand
	last time.Time // delivery time of the previous packet
}

// schedule returns the delivery times of a packet that arrived at now: none
// (lost), one, or two (duplicated).
func (s *scheduler) schedule(im impairment, now time.Time) []time.Time {
	if im.Loss > 0 && s.rng.Float64() < im.Loss {
		return nil
	}
	d := im.Delay
	if im.Jitter > 0 {
		d += time.Duration(s.rng.Int64N(int64(2*im.Jitter)+1)) - im.Jitter
	}
	t := now.Add(max(d, 0))
	if t.Before(s.last) {
		t = s.last
	}
	s.last = t
	if im.Dup > 0 && s.rng.Float64() < im.Dup {
		return []time.Time{t, t}
	}
	return []time.Time{t}
}

// openTUN opens TUN device name in the network namespace ns (a name under
// /run/netns), without packet information; with tap a TAP device (Ethernet
// frames: the link can be a bridge's port, multicast included). The device
// lives as long as the returned file.
func openTUN(ns, name string, tap bool) (*os.File, error) {
	type result struct {
		f   *os.File
		err error
	}
	ch := make(chan result, 1)
	go func() {
		// The thread joins ns and is never given back: it ends with this
		// goroutine (a locked thread whose goroutine exits is destroyed).
		runtime.LockOSThread()
		nsf, err := os.Open("/run/netns/" + ns)
		if err != nil {
			ch <- result{nil, err}
			return
		}
		defer nsf.Close()
		if err := unix.Setns(int(nsf.Fd()), unix.CLONE_NEWNET); err != nil {
			ch <- result{nil, fmt.Errorf("setns %s: %w", ns, err)}
			return
		}
		fd, err := unix.Open("/dev/net/tun", unix.O_RDWR|unix.O_CLOEXEC, 0)
		if err != nil {
			ch <- result{nil, fmt.Errorf("open /dev/net/tun: %w", err)}
			return
		}
		ifr, err := unix.NewIfreq(name)
		if err != nil {
			unix.Close(fd)
			ch <- result{nil, err}
			return
		}
		mode := uint16(unix.IFF_TUN)
		if tap {
			mode = unix.IFF_TAP
		}
		ifr.SetUint16(mode | unix.IFF_NO_PI)
		if err := unix.IoctlIfreq(fd, unix.TUNSETIFF, ifr); err != nil {
			unix.Close(fd)
			ch <- result{nil, fmt.Errorf("TUNSETIFF %s in %s: %w", name, ns, err)}
			return
		}
		if err := unix.SetNonblock(fd, true); err != nil {
			unix.Close(fd)
			ch <- result{nil, err}
			return
		}
		ch <- result{os.NewFile(uintptr(fd), ns+"/"+name), nil}
	}()
	r := <-ch
	return r.f, r.err
}

type packet struct {
	at   time.Time
	data []byte
}

// counters of one direction.
type counters struct {
	in, lost, dup, overflow atomic.Int64
}

// forward copies packets from src to dst through the impairment.
func forward(src, dst *os.File, cur *atomic.Pointer[impairment], seed uint64, c *counters) {
	q := make(chan packet, 8192)
	go func() {
		for p := range q {
			if d := time.Until(p.at); d > 0 {
				time.Sleep(d)
			}
			dst.Write(p.data) //nolint:errcheck // a packet that cannot be written is lost, as on a wire
		}
	}()
	s := &scheduler{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	buf := make([]byte, 65536)
	for {
		n, err := src.Read(buf)
		if err != nil {
			close(q)
			return
		}
		c.in.Add(1)
		ts := s.schedule(*cur.Load(), time.Now())
		if len(ts) == 0 {
			c.lost.Add(1)
			continue
		}
		if len(ts) == 2 {
			c.dup.Add(1)
		}
		data := append([]byte(nil), buf[:n]...)
		for _, t := range ts {
			select {
			case q <- packet{t, data}:
			default:
				c.overflow.Add(1)
			}
		}
	}
}

func runImpair(args []string) error {
	fs := flag.NewFlagSet("impair", flag.ContinueOnError)
	nsA := fs.String("a", "", "network namespace of side A")
	ifA := fs.String("a-if", "eth0", "TUN device name in A")
	nsB := fs.String("b", "", "network namespace of side B")
	ifB := fs.String("b-if", "lan0", "TUN device name in B")
	config := fs.String("config", "", "impairment file, read again on SIGHUP (default: none)")
	tap := fs.Bool("tap", false, "TAP devices (Ethernet frames) instead of TUN: side B's can join a bridge (make party)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *nsA == "" || *nsB == "" {
		return errors.New("-a and -b are required")
	}
	read := func() (impairment, error) {
		if *config == "" {
			return impairment{}, nil
		}
		b, err := os.ReadFile(*config)
		if err != nil {
			return impairment{}, err
		}
		return parseImpairment(string(b))
	}
	im, err := read()
	if err != nil {
		return err
	}
	var cur atomic.Pointer[impairment]
	cur.Store(&im)
	a, err := openTUN(*nsA, *ifA, *tap)
	if err != nil {
		return err
	}
	b, err := openTUN(*nsB, *ifB, *tap)
	if err != nil {
		return err
	}
	var ab, ba counters
	seed := uint64(time.Now().UnixNano())
	var wg sync.WaitGroup
	wg.Go(func() { forward(a, b, &cur, seed, &ab) })
	wg.Go(func() { forward(b, a, &cur, seed+1, &ba) })
	fmt.Printf("impair: ready %s/%s <-> %s/%s: %v\n", *nsA, *ifA, *nsB, *ifB, im)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT, syscall.SIGUSR1)
	for s := range sig {
		switch s {
		case syscall.SIGHUP:
			n, err := read()
			if err != nil {
				fmt.Printf("impair: config: %v (kept %v)\n", err, *cur.Load())
				continue
			}
			cur.Store(&n)
			fmt.Printf("impair: now %v\n", n)
		case syscall.SIGUSR1:
			fmt.Printf("impair: a->b in=%d lost=%d dup=%d overflow=%d; b->a in=%d lost=%d dup=%d overflow=%d\n",
				ab.in.Load(), ab.lost.Load(), ab.dup.Load(), ab.overflow.Load(), ba.in.Load(), ba.lost.Load(), ba.dup.Load(), ba.overflow.Load())
		default:
			a.Close()
			b.Close()
			return nil
		}
	}
	return nil
}
