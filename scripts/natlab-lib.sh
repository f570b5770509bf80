# shellcheck shell=bash
# natlab-lib.sh: the building blocks of okey's network-namespace labs,
# sourced by scripts/nat-lab-test.sh (make nat-lab) and
# scripts/nat-lab-matrix.sh (make nat-lab-matrix); any lab may source it.
# Run as root. Nothing here touches the machine's own interfaces: every
# link is a veth or TUN pair with both ends in namespaces the caller names,
# and nl_root_links_check proves it afterwards.
#
# State. Each namespace made is appended to the array named by $NL_NS_VAR
# (default NL_NSES), each background process started to the array named by
# $NL_PID_VAR (default NL_PIDS): a caller that builds and removes parts of
# its lab (a matrix cell) points these at its own arrays for that part, and
# nl_teardown ARRAY_OF_PIDS ARRAY_OF_NSES removes them.
#
# Addresses. The lab's "internet" lies inside NL_LAB_NET (11.76.0.0/14, a
# range libp2p counts as public). A router drops, and counts, every packet
# for an address outside it (nl_leaks must stay 0); nothing routes out.
#
# Functions:
#   nl_nsx NS CMD...          CMD in namespace NS (not for `&`: see below)
#   nl_ns NS                  a namespace with its loopback up
#   nl_segment NS [BR]        a namespace holding bridge BR (default br0):
#                             a shared segment, such as the internet
#   nl_attach SEG NS IF ADDR/LEN VETH [BR]
#                             a veth from SEG's bridge (end named VETH, at
#                             most 15 characters) to interface IF of NS
#   nl_home SEG R H WAN LAN TYPE VETH [IMPAIR]
#                             home H behind router R: R's WAN is WAN/24 on
#                             SEG's bridge, the home is LAN.2/24 behind
#                             LAN.1 (LAN: the first three octets); R is a
#                             NAT of TYPE (nl_router). Home and router are
#                             joined by a veth, or with IMPAIR (a natlab
#                             impair setting, "delay=25ms loss=0.5%") by
#                             nl_impair_start
#   nl_router R H TYPE WAN HOSTADDR
#                             R's forwarding and NAT rules of TYPE: none,
#                             full, addr, port (alias cone), sym (alias
#                             symmetric), udpblock (docs/nat-lab.md); its
#                             chain okeytransport (first in FORWARD, empty)
#                             is the caller's, to let one transport through
#   nl_impair_start A AIF B BIF SETTING OUT
#                             natlab impair between namespaces A and B
#                             (interfaces AIF, BIF; its log OUT, its config
#                             OUT.cfg, read again on SIGHUP); its process id
#                             in NL_IMPAIR_PID
#   nl_impair_set PID OUT SETTING   a new setting for a running natlab impair
#   nl_impair_stop PID        stop it (the link goes with its TUN devices)
#   nl_impair_check NS TO SETTING [tcp]
#                             measures from NS to the echo server TO
#                             (natlab probe-server's IP:PORT) with natlab rtt
#                             and checks the RTT, loss and duplicates are
#                             what SETTING gives on one impaired link each
#                             way; NL_IMPAIR_MEASURED holds the measurement,
#                             NL_IMPAIR_WHY why it failed (returns 1)
#   nl_leaks R...             packets the routers R dropped for addresses
#                             outside the lab
#   nl_root_links FILE        the machine's own interfaces, into FILE
#   nl_root_links_check BEFORE AFTER   fails if the lab left one there
#   nl_teardown PIDS NSES     kills the processes of the arrays named PIDS,
#                             then whatever still runs in the namespaces of
#                             the array named NSES, and deletes those
#
# `nl_nsx NS CMD &` forks a subshell: $! is the subshell's, and killing it
# leaves CMD running in the namespace. Put a command in the background with
# `ip netns exec NS CMD &`, which execs CMD in the process $! names.
#
# NATLAB (the natlab binary) must be set before nl_impair_*.

NL_LAB_NET=11.76.0.0/14
# The default arrays of NL_NS_VAR and NL_PID_VAR, read through namerefs.
# shellcheck disable=SC2034
NL_NSES=()
# shellcheck disable=SC2034
NL_PIDS=()

nl_nsx() { ip netns exec "$@"; }

nl_track_ns() {
	local -n _nl_a=${NL_NS_VAR:-NL_NSES}
	_nl_a+=("$1")
}

nl_track_pid() {
	# shellcheck disable=SC2178 # a nameref to an array
	local -n _nl_a=${NL_PID_VAR:-NL_PIDS}
	_nl_a+=("$1")
}

nl_ns() {
	ip netns add "$1"
	nl_track_ns "$1"
	ip -n "$1" link set lo up
}

nl_segment() {
	local ns=$1 br=${2:-br0}
	nl_ns "$ns"
	ip -n "$ns" link add "$br" type bridge
	ip -n "$ns" link set "$br" up
}

nl_attach() {
	local seg=$1 ns=$2 ifname=$3 addr=$4 veth=${5:0:15} br=${6:-br0}
	ip link add "$veth" netns "$seg" type veth peer name "$ifname" netns "$ns"
	ip -n "$seg" link set "$veth" master "$br"
	ip -n "$seg" link set "$veth" up
	ip -n "$ns" addr add "$addr" dev "$ifname"
	ip -n "$ns" link set "$ifname" up
}

nl_home() {
	local seg=$1 r=$2 h=$3 wan=$4 lan=$5 type=$6 veth=$7 impair=${8:-}
	nl_ns "$r"
	nl_ns "$h"
	nl_attach "$seg" "$r" wan0 "$wan/24" "$veth"
	if [ -n "$impair" ]; then
		nl_impair_start "$h" eth0 "$r" lan0 "$impair" "${NL_IMPAIR_OUT:-/tmp/natlab-impair.$h}" || return 1
	else
		ip link add lan0 netns "$r" type veth peer name eth0 netns "$h"
	fi
	ip -n "$r" addr add "$lan.1/24" dev lan0
	ip -n "$r" link set lan0 up
	ip -n "$h" addr add "$lan.2/24" dev eth0
	ip -n "$h" link set eth0 up
	ip -n "$h" route add default via "$lan.1"
	nl_nsx "$r" sysctl -qw net.ipv4.ip_forward=1
	nl_router "$r" "$h" "$type" "$wan" "$lan.2"
}

nl_router() {
	local r=$1 type=$3 wan=$4 hostaddr=$5
	local ipt="nl_nsx $r iptables"
	# The caller's transport filter first, then what would leave the lab:
	# a packet for an address outside it is counted and dropped. Like a
	# home router, the router itself answers nothing unsolicited from the
	# WAN (no TCP reset, no ICMP unreachable: either would kill the other
	# side's half of a hole punch).
	$ipt -N okeytransport
	$ipt -A FORWARD -j okeytransport
	$ipt -A FORWARD -o wan0 ! -d "$NL_LAB_NET" -m addrtype ! --dst-type MULTICAST,BROADCAST -j DROP
	$ipt -A INPUT -i wan0 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT
	$ipt -A INPUT -i wan0 -j DROP
	case $type in
	none)
		$ipt -A FORWARD -j ACCEPT
		;;
	full)
		$ipt -t nat -A POSTROUTING -o wan0 -j SNAT --to-source "$wan"
		$ipt -t nat -A PREROUTING -i wan0 -j DNAT --to-destination "$hostaddr"
		$ipt -A FORWARD -j ACCEPT
		;;
	addr)
		$ipt -t nat -A POSTROUTING -o wan0 -j MASQUERADE
		$ipt -t nat -A PREROUTING -i wan0 -m recent --name okeyout --rcheck --rsource -j DNAT --to-destination "$hostaddr"
		$ipt -A FORWARD -i lan0 -o wan0 -m recent --name okeyout --set --rdest -j ACCEPT
		$ipt -A FORWARD -i wan0 -o lan0 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT
		$ipt -A FORWARD -i wan0 -o lan0 -m recent --name okeyout --rcheck --rsource -j ACCEPT
		$ipt -A FORWARD -i wan0 -j DROP
		;;
	port | cone | udpblock)
		$ipt -t nat -A POSTROUTING -o wan0 -j MASQUERADE
		[ "$type" != udpblock ] || $ipt -A FORWARD -p udp -j DROP
		$ipt -A FORWARD -i wan0 -o lan0 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT
		$ipt -A FORWARD -i wan0 -j DROP
		$ipt -A FORWARD -i lan0 -o wan0 -j ACCEPT
		;;
	sym | symmetric)
		$ipt -t nat -A POSTROUTING -o wan0 -j MASQUERADE --random
		$ipt -A FORWARD -i wan0 -o lan0 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT
		$ipt -A FORWARD -i wan0 -j DROP
		$ipt -A FORWARD -i lan0 -o wan0 -j ACCEPT
		;;
	*)
		echo "natlab-lib: unknown NAT type $type (none full addr port sym udpblock)" >&2
		return 1
		;;
	esac
}

nl_impair_start() {
	local a=$1 aif=$2 b=$3 bif=$4 setting=$5 out=$6 deadline
	echo "$setting" >"$out.cfg"
	"$NATLAB" impair -a "$a" -a-if "$aif" -b "$b" -b-if "$bif" -config "$out.cfg" >"$out" 2>&1 &
	NL_IMPAIR_PID=$!
	nl_track_pid "$NL_IMPAIR_PID"
	deadline=$(($(date +%s) + 10))
	until grep -q 'ready' "$out" 2>/dev/null; do
		if [ "$(date +%s)" -ge "$deadline" ] || ! kill -0 "$NL_IMPAIR_PID" 2>/dev/null; then
			echo "natlab-lib: natlab impair between $a and $b did not start: $(cat "$out")" >&2
			return 1
		fi
		sleep 0.05
	done
}

nl_impair_set() {
	echo "$3" >"$2.cfg"
	kill -HUP "$1"
}

nl_impair_stop() {
	kill "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}

nl_impair_check() {
	local ns=$1 to=$2 setting=$3 tcp=${4:-}
	NL_IMPAIR_WHY=""
	if [ "$tcp" = tcp ]; then
		NL_IMPAIR_MEASURED=$(nl_nsx "$ns" "$NATLAB" rtt -tcp -to "$to" -n 60 -every 20ms)
	else
		NL_IMPAIR_MEASURED=$(nl_nsx "$ns" "$NATLAB" rtt -to "$to" -n 400 -every 5ms)
	fi
	# shellcheck disable=SC2034 # the caller's (nl_impair_start's result)
	NL_IMPAIR_WHY=$(awk -v imp="$setting" -v res="$NL_IMPAIR_MEASURED" -v tcp="$([ "$tcp" = tcp ] && echo 1 || echo 0)" '
	function dur(s) { if (s ~ /ms$/) return substr(s, 1, length(s)-2)+0; if (s ~ /µs$/) return (substr(s, 1, length(s)-2)+0)/1000;
		if (s ~ /s$/) return (substr(s, 1, length(s)-1)+0)*1000; return s+0 }
	function pct(s) { if (s ~ /%$/) return (substr(s, 1, length(s)-1)+0)/100; return s+0 }
	BEGIN {
		delay = 0; jitter = 0; loss = 0; dup = 0
		n = split(imp, f, /[ ,]/); for (k = 1; k <= n; k++) { split(f[k], kv, "=");
			if (kv[1] == "delay") delay = dur(kv[2]); if (kv[1] == "jitter") jitter = dur(kv[2]);
			if (kv[1] == "loss") loss = pct(kv[2]); if (kv[1] == "dup") dup = pct(kv[2]) }
		n = split(res, f, " "); for (k = 1; k <= n; k++) { split(f[k], kv, "=");
			if (kv[1] == "sent") sent = kv[2]; if (kv[1] == "got") got = kv[2]; if (kv[1] == "dup") dups = kv[2];
			if (kv[1] == "rtt_p50") p50 = dur(kv[2]) }
		if (sent == "") { print "no measurement"; exit 1 }
		want = 2 * delay; slack = 5 + 0.1 * want + jitter
		if (p50 < want - 1 - jitter || p50 > want + slack) { printf "rtt p50 %.1f ms, want %.1f ms (+%.1f)\n", p50, want, slack; exit 1 }
		if (tcp) exit 0
		e = 1 - (1 - loss) * (1 - loss); m = (sent - got) / sent; sd = sqrt(e * (1 - e) / sent)
		if (m > e + 4 * sd + 0.005 || m < e - 4 * sd - 0.005 || (e > 0.05 && m == 0)) { printf "loss %.2f%%, want %.2f%%\n", 100*m, 100*e; exit 1 }
		ed = 1 - (1 - dup) * (1 - dup); md = dups / sent; sd = sqrt(ed * (1 - ed) / sent)
		if (md > ed + 4 * sd + 0.005 || md < ed - 4 * sd - 0.005) { printf "duplicates %.2f%%, want about %.2f%%\n", 100*md, 100*ed; exit 1 }
	}') || return 1
}

nl_leaks() {
	local r n sum=0
	for r in "$@"; do
		n=$(nl_nsx "$r" iptables -vnx -L FORWARD | awk -v net="!$NL_LAB_NET" '$1 ~ /^[0-9]+$/ && /DROP/ && index($0, net) {print $1}')
		sum=$((sum + ${n:-0}))
	done
	echo "$sum"
}

nl_root_links() {
	ip -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' | sort >"$1"
}

nl_root_links_check() {
	cmp -s "$1" "$2" && return 0
	echo "natlab-lib: the lab left an interface in the machine's own namespace: $(comm -13 "$1" "$2" | tr '\n' ' ')" >&2
	return 1
}

nl_teardown() {
	local -n _nl_pids=$1 _nl_nses=$2
	local p ns
	for p in "${_nl_pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
	for p in "${_nl_pids[@]}"; do wait "$p" 2>/dev/null || true; done
	for ns in "${_nl_nses[@]}"; do
		for p in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$p" 2>/dev/null || true; done
		ip netns del "$ns" 2>/dev/null || true
	done
	_nl_pids=()
	_nl_nses=()
}
