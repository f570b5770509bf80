//go:build linux

package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The probe's UDP requests, one datagram each:
//
//	"map NONCE FROM"  answered "NONCE OBSERVED-IP:PORT" from socket FROM:
//	                  0 the one asked, 1 the other address (same port),
//	                  2 the same address, the next port
//	"echo ..."        answered with the same bytes
//
// Over TCP (the same two addresses, the first port) the server writes the
// observed address and a newline, and closes.

// probeServer listens on a:port, b:port and a:port+1.
func runProbeServer(args []string) error {
	fs := flag.NewFlagSet("probe-server", flag.ContinueOnError)
	a := fs.String("a", "", "first address")
	b := fs.String("b", "", "second address")
	port := fs.Int("port", 3478, "first port (the second is port+1)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	addrs := []string{
		net.JoinHostPort(*a, strconv.Itoa(*port)),
		net.JoinHostPort(*b, strconv.Itoa(*port)),
		net.JoinHostPort(*a, strconv.Itoa(*port+1)),
	}
	var socks []*net.UDPConn
	for _, s := range addrs {
		ua, err := net.ResolveUDPAddr("udp4", s)
		if err != nil {
			return err
		}
		c, err := net.ListenUDP("udp4", ua)
		if err != nil {
			return err
		}
		socks = append(socks, c)
	}
	for _, s := range addrs[:2] {
		l, err := net.Listen("tcp4", s)
		if err != nil {
			return err
		}
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				fmt.Fprintf(c, "%s\n", c.RemoteAddr())
				c.Close()
			}
		}()
	}
	for i, c := range socks {
		go func() {
			buf := make([]byte, 2048)
			for {
				n, from, err := c.ReadFromUDPAddrPort(buf)
				if err != nil {
					return
				}
				msg := string(buf[:n])
				if strings.HasPrefix(msg, "echo ") {
					c.WriteToUDPAddrPort(buf[:n], from) //nolint:errcheck // best effort, as the link
					continue
				}
				f := strings.Fields(msg)
				if len(f) != 3 || f[0] != "map" {
					continue
				}
				k, err := strconv.Atoi(f[2])
				if err != nil || k < 0 || k > 2 {
					continue
				}
				via := c
				switch k {
				case 1:
					via = socks[[]int{1, 0, 1}[i]]
				case 2:
					via = socks[[]int{2, 2, 0}[i]]
				}
				via.WriteToUDPAddrPort([]byte(f[1]+" "+from.String()), from) //nolint:errcheck // best effort
			}
		}()
	}
	fmt.Printf("probe-server: ready on %s\n", strings.Join(addrs, " "))
	select {}
}

// udpAsk sends "map NONCE FROM" to to from c and waits for the answer
// (tries times, wait each). ok is false when none came.
func udpAsk(c *net.UDPConn, to netip.AddrPort, from, tries int, wait time.Duration) (netip.AddrPort, bool) {
	nonce := strconv.FormatInt(time.Now().UnixNano(), 36)
	buf := make([]byte, 2048)
	for range tries {
		if _, err := c.WriteToUDPAddrPort([]byte(fmt.Sprintf("map %s %d", nonce, from)), to); err != nil {
			return netip.AddrPort{}, false
		}
		deadline := time.Now().Add(wait)
		for {
			c.SetReadDeadline(deadline) //nolint:errcheck // a socket
			n, _, err := c.ReadFromUDPAddrPort(buf)
			if err != nil {
				break
			}
			f := strings.Fields(string(buf[:n]))
			if len(f) == 2 && f[0] == nonce {
				ap, err := netip.ParseAddrPort(f[1])
				if err == nil {
					return ap, true
				}
			}
		}
	}
	return netip.AddrPort{}, false
}

// natType names what a probe found.
type natFindings struct {
	UDP           bool           // any UDP answer at all
	Local         netip.AddrPort // the socket's own address (the mapping test's)
	Mapped        []netip.AddrPort
	FromOtherAddr bool // an answer from the other address reached a socket that spoke only to the first
	FromOtherPort bool // an answer from the first address's other port did
	TCP           bool
	TCPMapped     []netip.AddrPort // one local port, two servers
}

// classify names the NAT type of findings.
func classify(f natFindings) string {
	if !f.UDP {
		return "udp-blocked"
	}
	for _, m := range f.Mapped[1:] {
		if m != f.Mapped[0] {
			return "symmetric"
		}
	}
	switch {
	case f.Mapped[0].Addr() == f.Local.Addr() && f.FromOtherAddr:
		return "none"
	case f.FromOtherAddr:
		return "full-cone"
	case f.FromOtherPort:
		return "address-restricted"
	}
	return "port-restricted"
}

func reuseControl(_, _ string, c syscall.RawConn) error {
	var serr error
	err := c.Control(func(fd uintptr) {
		serr = errors.Join(unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_REUSEADDR, 1),
			unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_REUSEPORT, 1))
	})
	return errors.Join(err, serr)
}

// tcpObserved connects from local (port 0: any) to to and reads what the
// server saw.
func tcpObserved(local, to netip.AddrPort) (netip.AddrPort, netip.AddrPort, error) {
	d := net.Dialer{Timeout: 3 * time.Second, Control: reuseControl, LocalAddr: net.TCPAddrFromAddrPort(local)}
	c, err := d.DialContext(context.Background(), "tcp4", to.String())
	if err != nil {
		return netip.AddrPort{}, netip.AddrPort{}, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(3 * time.Second)) //nolint:errcheck // a socket
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return netip.AddrPort{}, netip.AddrPort{}, err
	}
	ap, err := netip.ParseAddrPort(strings.TrimSpace(line))
	return c.LocalAddr().(*net.TCPAddr).AddrPort(), ap, err
}

func runProbe(args []string) error {
	fs := flag.NewFlagSet("probe", flag.ContinueOnError)
	a := fs.String("a", "", "the probe server's first address")
	b := fs.String("b", "", "its second address")
	port := fs.Int("port", 3478, "its first port")
	expect := fs.String("expect", "", "fail unless the NAT is of this type")
	local := fs.String("local", "", "this host's address (to tell no NAT from a NAT)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	A, err := netip.ParseAddr(*a)
	if err != nil {
		return err
	}
	B, err := netip.ParseAddr(*b)
	if err != nil {
		return err
	}
	L, err := netip.ParseAddr(*local)
	if err != nil {
		return fmt.Errorf("-local: %w", err)
	}
	a1 := netip.AddrPortFrom(A, uint16(*port))
	a2 := netip.AddrPortFrom(B, uint16(*port))
	a3 := netip.AddrPortFrom(A, uint16(*port+1))
	const tries, wait = 4, 700 * time.Millisecond
	var f natFindings
	fresh := func() (*net.UDPConn, error) {
		return net.ListenUDP("udp4", net.UDPAddrFromAddrPort(netip.AddrPortFrom(L, 0)))
	}
	// Filtering first, each on a socket that has spoken only to a1: an
	// answer from the other address, then from a1's other port.
	for i, from := range []int{1, 2} {
		c, err := fresh()
		if err != nil {
			return err
		}
		// The first answer (from a1 itself) shows the UDP path works at all.
		if _, ok := udpAsk(c, a1, 0, tries, wait); ok {
			f.UDP = true
			_, got := udpAsk(c, a1, from, 2, wait)
			if i == 0 {
				f.FromOtherAddr = got
			} else {
				f.FromOtherPort = got
			}
		}
		c.Close()
	}
	if f.UDP {
		// Mapping: one socket to a1, a2, a3.
		c, err := fresh()
		if err != nil {
			return err
		}
		f.Local = c.LocalAddr().(*net.UDPAddr).AddrPort()
		for _, to := range []netip.AddrPort{a1, a2, a3} {
			m, ok := udpAsk(c, to, 0, tries, wait)
			if !ok {
				c.Close()
				return fmt.Errorf("no answer from %v on the mapping test (an answer came before)", to)
			}
			f.Mapped = append(f.Mapped, m)
		}
		c.Close()
	}
	// TCP: one local port to both addresses.
	l1, m1, err := tcpObserved(netip.AddrPortFrom(L, 0), a1)
	if err == nil {
		f.TCP = true
		_, m2, err := tcpObserved(l1, a2)
		if err != nil {
			return fmt.Errorf("tcp from %v to %v: %w", l1, a2, err)
		}
		f.TCPMapped = []netip.AddrPort{m1, m2}
	}
	got := classify(f)
	tcpMapping := "none"
	if f.TCP {
		tcpMapping = "endpoint-independent"
		if f.TCPMapped[0] != f.TCPMapped[1] {
			tcpMapping = "endpoint-dependent"
		}
	}
	fmt.Printf("nat=%s udp_mapped=%v other_addr=%v other_port=%v tcp=%v tcp_mapped=%v tcp_mapping=%s\n",
		got, f.Mapped, f.FromOtherAddr, f.FromOtherPort, f.TCP, f.TCPMapped, tcpMapping)
	if *expect == "" {
		return nil
	}
	if got != *expect {
		return fmt.Errorf("router behaves as %s, not %s", got, *expect)
	}
	// TCP must agree: open, and as the UDP mapping says (a symmetric NAT
	// maps TCP per destination too).
	wantTCP := "endpoint-independent"
	if got == "symmetric" {
		wantTCP = "endpoint-dependent"
	}
	if tcpMapping != wantTCP {
		return fmt.Errorf("tcp mapping is %s, want %s for %s", tcpMapping, wantTCP, got)
	}
	return nil
}
