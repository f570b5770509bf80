//go:build linux

// Command natlab is the NAT matrix lab's helper (scripts/nat-lab-matrix.sh,
// `sudo make nat-lab-matrix`; docs/nat-lab.md). It is not part of okey:
//
//	natlab impair -a NS -a-if IF -b NS -b-if IF -config FILE
//	    a point-to-point link between two network namespaces made of two TUN
//	    devices and this process, which forwards every packet after a delay,
//	    with jitter, loss and duplication (this kernel has no netem). The
//	    config file ("delay=25ms jitter=5ms loss=0.5% dup=0%") is read again
//	    on SIGHUP; the same impairment applies each way.
//	natlab probe-server -a IP -b IP -port N
//	    the internet side of the NAT probe (RFC 5780's idea: two addresses,
//	    two ports) and a UDP echo for rtt.
//	natlab probe -a IP -b IP -port N [-expect TYPE]
//	    from a home: what NAT its router is (none, full-cone,
//	    address-restricted, port-restricted, symmetric, udp-blocked).
//	natlab rtt -to IP:PORT [-tcp] [-n N] [-every D]
//	    round-trip time, loss and duplicates through the impaired links.
//	natlab report [-header] DIR
//	    one row of the matrix table from a cell's work directory (the bots'
//	    logs, outputs and the script's timestamps); the raw figures go to
//	    DIR/figures.txt.
//	natlab summary DIR...
//	    the figures over the cells given (quantiles, link counts).
//	natlab hops DIR
//	    where each hand's start went in a cell kept with KEEP=1 (the bots
//	    log at debug level): each lock and re-key hop's transit and build,
//	    then the open and deal rounds (docs/nat-lab.md).
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: natlab impair|probe-server|probe|rtt|report|summary|hops ...")
		os.Exit(2)
	}
	var err error
	args := os.Args[2:]
	switch os.Args[1] {
	case "impair":
		err = runImpair(args)
	case "probe-server":
		err = runProbeServer(args)
	case "probe":
		err = runProbe(args)
	case "rtt":
		err = runRTT(args)
	case "report":
		err = runReport(args)
	case "summary":
		err = runSummary(args)
	case "hops":
		err = runHops(args)
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "natlab: %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}
