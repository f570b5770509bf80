//go:build linux

package main

import (
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"net"
	"slices"
	"sync"
	"time"
)

// rttResult is what rtt measured.
type rttResult struct {
	Sent, Got, Dups int
	RTTs            []time.Duration // one per answered probe (its first answer)
}

// quantile returns the p-th percentile (nearest rank) of ds, 0 if empty.
func quantile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p+99)/100 - 1
	return s[min(max(i, 0), len(s)-1)]
}

func (r rttResult) String() string {
	loss := 0.0
	if r.Sent > 0 {
		loss = 100 * float64(r.Sent-r.Got) / float64(r.Sent)
	}
	return fmt.Sprintf("sent=%d got=%d loss=%.2f%% dup=%d rtt_min=%v rtt_p50=%v rtt_p95=%v rtt_max=%v", r.Sent, r.Got, loss, r.Dups,
		quantile(r.RTTs, 0).Round(100*time.Microsecond), quantile(r.RTTs, 50).Round(100*time.Microsecond),
		quantile(r.RTTs, 95).Round(100*time.Microsecond), quantile(r.RTTs, 100).Round(100*time.Microsecond))
}

// udpRTT sends n echo probes every interval and collects answers until
// wait after the last.
func udpRTT(to string, n int, every, wait time.Duration) (rttResult, error) {
	c, err := net.Dial("udp4", to)
	if err != nil {
		return rttResult{}, err
	}
	defer c.Close()
	var (
		mu   sync.Mutex
		seen = make([]int, n)
		sent = make([]time.Time, n)
		res  = rttResult{Sent: n}
	)
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 64)
		for {
			k, err := c.Read(buf)
			if err != nil {
				return
			}
			now := time.Now()
			if k != 13 || string(buf[:5]) != "echo " {
				continue
			}
			i := int(binary.BigEndian.Uint64(buf[5:13]))
			if i < 0 || i >= n {
				continue
			}
			mu.Lock()
			seen[i]++
			if seen[i] == 1 {
				res.Got++
				res.RTTs = append(res.RTTs, now.Sub(sent[i]))
			} else {
				res.Dups++
			}
			mu.Unlock()
		}
	}()
	msg := make([]byte, 13)
	copy(msg, "echo ")
	t := time.NewTicker(every)
	for i := range n {
		binary.BigEndian.PutUint64(msg[5:], uint64(i))
		mu.Lock()
		sent[i] = time.Now()
		mu.Unlock()
		c.Write(msg) //nolint:errcheck // a lost probe is counted as lost
		<-t.C
	}
	t.Stop()
	time.Sleep(wait)
	c.Close()
	<-done
	return res, nil
}

// tcpRTT times n TCP connects (the handshake is one round trip; a lost
// SYN or SYN-ACK shows as a connect over a second, counted as a loss).
func tcpRTT(to string, n int, every time.Duration) rttResult {
	res := rttResult{Sent: n}
	for range n {
		start := time.Now()
		d := net.Dialer{Timeout: 5 * time.Second}
		c, err := d.DialContext(context.Background(), "tcp4", to)
		el := time.Since(start)
		if err == nil {
			c.Close()
			if el < time.Second {
				res.Got++
				res.RTTs = append(res.RTTs, el)
			}
		}
		time.Sleep(every)
	}
	return res
}

func runRTT(args []string) error {
	fs := flag.NewFlagSet("rtt", flag.ContinueOnError)
	to := fs.String("to", "", "the probe server's IP:PORT")
	useTCP := fs.Bool("tcp", false, "time TCP connects instead of UDP echoes")
	n := fs.Int("n", 300, "probes")
	every := fs.Duration("every", 5*time.Millisecond, "interval between probes")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *n < 1 {
		return fmt.Errorf("-n must be at least 1")
	}
	var r rttResult
	if *useTCP {
		r = tcpRTT(*to, *n, *every)
	} else {
		var err error
		if r, err = udpRTT(*to, *n, *every, 2*time.Second); err != nil {
			return err
		}
	}
	fmt.Println(r)
	return nil
}
