#!/usr/bin/env bash
# nat-lab-matrix.sh: the NAT matrix (issue 23), not part of make test. As
# root, in network namespaces it creates (okeymx-<pid>-...), never touching
# the machine's own interfaces; everything is removed on exit.
#
#   internet  a bridge in okeymx-<pid>-inet, 11.77.0.0/24 (an address range
#             libp2p counts as public; nothing routes out of the lab)
#   relay     okeymx-<pid>-relay: okey relay on 11.77.0.2, and the NAT
#             probe's server on 11.77.0.2 and 11.77.0.3
#   seat i    (1-4; seat 1 creates the table) home okeymx-<pid>-hI behind
#             router okeymx-<pid>-rI (WAN 11.77.0.1I). Home and router are
#             joined by `natlab impair` (two TUN devices and a Go process:
#             delay, jitter, loss, duplication each way; this kernel has no
#             netem). The router's type:
#               none     a public host: the home is 11.78.I.2/24, routed, no
#                        NAT, no filter
#               full     full cone: SNAT to the WAN address (ports kept),
#                        DNAT of every port from the WAN to the home
#               addr     address-restricted cone: MASQUERADE (ports kept);
#                        from the WAN, besides replies, anything from an
#                        address the home has sent to (xt_recent) is DNATed
#               port     port-restricted cone: MASQUERADE, replies only
#               sym      symmetric: MASQUERADE --random, replies only
#               udpblock port-restricted, and the router drops all UDP
#             Homes: 10.0.I.2/24 behind 10.0.I.1. A router answers nothing
#             unsolicited itself (no reset, no ICMP).
#
# For each cell (4 NAT types, a transport, with or without the relay) the
# script builds the 4 homes, checks with `natlab probe` that each router
# behaves as its type (and fails loudly if not), sets the impairment and
# checks with `natlab rtt` that it took effect (RTT, loss and duplicates
# within bounds), lets only the cell's transport through the routers (QUIC:
# UDP only; TCP: TCP only), then plays a match: seat 1 `okey bot --create`
# (with --relay in relay cells), seats 2-4 `--code -`. It records whether the
# table formed, whether the match finished with identical transcripts that
# `okey verify` accepts, the links (direct, relayed, via a member) at the
# end, join-to-ready times and move propagation times (`natlab report`), and
# appends one row to the table file.
#
# usage: sudo scripts/nat-lab-matrix.sh
# env:   CELLS="port,port,port,sym full,addr,none,udpblock"  cells (seat 1
#                           first; default: a set in which every pair of
#                           types meets, and 4 x port)
#        TRANSPORTS="quic tcp"   RELAYS="relay norelay"
#                           (both: TCP and QUIC together, as a player's
#                           okey listens by default; the creator is given
#                           the relay's line as okey relay prints it and
#                           joiners take the relay from the code)
#        REPEAT=1           runs of each cell
#        IMPAIR="delay=25ms" the impairment of each home's link, each way
#                           (home to home: twice this each way)
#        RULES=classic:points=1  the ruleset (one hand, or a few)
#        TIMEOUT=240        seconds a match may take
#        FORM_TIMEOUT=60    seconds a table may take to start (no relay)
#        RESULTS=FILE       the table file (default nat-matrix-<time>.txt in
#                           the work directory, printed at the end)
#        OKEY=path NATLAB=path  prebuilt binaries (default: go build them)
#        KEEP=1             keep the work directory
#        FAULT=relay-stop|rebind|member-stop|no-forward  a fault (see docs/nat-lab.md)
set -euo pipefail

TIMEOUT=${TIMEOUT:-240}
FORM_TIMEOUT=${FORM_TIMEOUT:-60}
RULES=${RULES:-classic:points=1}
IMPAIR=${IMPAIR:-delay=25ms}
CELLS=${CELLS:-"none,full,addr,port none,full,sym,udpblock addr,port,sym,udpblock port,port,port,port"}
TRANSPORTS=${TRANSPORTS:-quic tcp}
RELAYS_MODES=${RELAYS:-relay norelay}
REPEAT=${REPEAT:-1}
FAULT=${FAULT:-}
ID=$$
P="okeymx-$ID"
NET=11.77.0
WORK=$(mktemp -d /tmp/okey-nat-matrix.XXXXXX)
RESULTS=${RESULTS:-$WORK/nat-matrix-$(date -u +%Y%m%dT%H%M%SZ).txt}
CELL_PIDS=()
# shellcheck disable=SC2034 # read through NL_NS_VAR/NL_PID_VAR (natlab-lib.sh's namerefs)
CELL_NSES=()
# shellcheck source=natlab-lib.sh
. "$(dirname "$0")/natlab-lib.sh"
# shellcheck source=bot-lib.sh
. "$(dirname "$0")/bot-lib.sh"

cleanup() {
	nl_teardown CELL_PIDS CELL_NSES
	nl_teardown NL_PIDS NL_NSES
	if [ -n "${KEEP:-}" ]; then echo "nat-matrix: work directory kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

die() {
	echo "nat-matrix: FAIL: $*" >&2
	exit 1
}
say() { echo "nat-matrix: $*"; }
nsx() { nl_nsx "$@"; }
now_ms() { date +%s%3N; }

[ "$(id -u)" -eq 0 ] || die "must run as root (network namespaces)"
command -v ip >/dev/null || die "the ip command (iproute2) is missing"
command -v iptables >/dev/null || die "iptables is missing"
[ -c /dev/net/tun ] || die "/dev/net/tun is missing (natlab impair needs TUN)"

cd "$(dirname "$0")/.."
if [ -z "${OKEY:-}" ]; then
	OKEY="$WORK/okey"
	go build -o "$OKEY" ./cmd/okey
fi
if [ -z "${NATLAB:-}" ]; then
	NATLAB="$WORK/natlab"
	go build -o "$NATLAB" ./scripts/natlab
fi
[ -x "$OKEY" ] || die "okey binary $OKEY is not executable"
[ -x "$NATLAB" ] || die "natlab binary $NATLAB is not executable"

nl_root_links "$WORK/root-links.before"

# --- the internet and the relay host (scripts/natlab-lib.sh) ---
nl_segment "$P-inet"
nl_ns "$P-relay"
nl_attach "$P-inet" "$P-relay" eth0 "$NET.2/24" "v0-relay"
ip -n "$P-relay" addr add "$NET.3/24" dev eth0

ip netns exec "$P-relay" "$NATLAB" probe-server -a "$NET.2" -b "$NET.3" -port 3478 >"$WORK/probe-server.out" 2>&1 &
nl_track_pid "$!"
mkdir -p "$WORK/relay"
ip netns exec "$P-relay" "$OKEY" relay --data "$WORK/relay" --listen "/ip4/$NET.2/tcp/4001" --listen "/ip4/$NET.2/udp/4001/quic-v1" -v \
	>"$WORK/relay.out" 2>"$WORK/relay.log" &
RELAY_PID=$!
nl_track_pid "$RELAY_PID"
deadline=$(($(date +%s) + 20))
until [ "$(grep -c '^relay: ' "$WORK/relay.out" 2>/dev/null || true)" -ge 2 ] && grep -q '^relay line: ' "$WORK/relay.out" && grep -q ready "$WORK/probe-server.out"; do
	[ "$(date +%s)" -lt "$deadline" ] || die "the relay or the probe server did not start: $(cat "$WORK/relay.out" "$WORK/probe-server.out")"
	sleep 0.1
done
RELAY_TCP=$(grep '^relay: ' "$WORK/relay.out" | cut -d' ' -f2 | grep "/ip4/$NET.2/tcp/" | head -1)
RELAY_QUIC=$(grep '^relay: ' "$WORK/relay.out" | cut -d' ' -f2 | grep "/ip4/$NET.2/udp/.*quic-v1" | head -1)
[ -n "$RELAY_TCP" ] && [ -n "$RELAY_QUIC" ] || die "the relay printed no address on $NET.2"
# Creators hold the relay's line (its key, issue 36): RELAY_KEY is appended
# to the creator's --relay; joiners take the relay from the code.
RELAY_KEY=$(grep -m1 '^relay line: ' "$WORK/relay.out" | sed 's|.*/okey-key/||')
[ -n "$RELAY_KEY" ] || die "the relay's line holds no key"
RELAY_LINE=$(grep -m1 '^relay line: ' "$WORK/relay.out" | cut -d' ' -f3)
say "relay up: $RELAY_TCP $RELAY_QUIC"

# --- a cell's homes ---
# home I TYPE: home I behind its router of TYPE, joined by natlab impair
# (its namespaces and process go with the cell: NL_NS_VAR, NL_PID_VAR).
home() {
	local i=$1 nat=$2 lan
	if [ "$nat" = none ]; then lan="11.78.$i"; else lan="10.0.$i"; fi
	case $nat in none | full | addr | port | sym | udpblock) ;; *) die "unknown NAT type $nat (none full addr port sym udpblock)" ;; esac
	# The internet's end of the veth is named after the cell, because a
	# deleted namespace's veth lingers for a moment (the kernel frees it
	# asynchronously).
	NL_IMPAIR_OUT="$CELL/impair.$i.out" NL_NS_VAR=CELL_NSES NL_PID_VAR=CELL_PIDS \
		nl_home "$P-inet" "$P-r$i" "$P-h$i" "$NET.1$i" "$lan" "$nat" "v$CELLNO-r$i" "$IMPAIR" ||
		die "cell $CELL_NAME: home $i could not be built"
	HOSTADDR[$i]=$lan.2
}

# The probe's names for the types.
probe_name() {
	case $1 in
	none) echo none ;; full) echo full-cone ;; addr) echo address-restricted ;;
	port) echo port-restricted ;; sym) echo symmetric ;; udpblock) echo udp-blocked ;;
	esac
}

# routes: every host on the internet reaches the public homes' subnets.
routes() {
	local i j
	for i in 1 2 3 4; do
		[ "${TYPE[$i]}" = none ] || continue
		ip -n "$P-relay" route replace "11.78.$i.0/24" via "$NET.1$i"
		for j in 1 2 3 4; do
			[ "$i" = "$j" ] || ip -n "$P-r$j" route replace "11.78.$i.0/24" via "$NET.1$i"
		done
	done
}

# transport T: only T's packets cross the routers (quic: UDP; tcp: TCP;
# both: either).
transport() {
	local i block
	[ "$1" != both ] || return 0
	if [ "$1" = quic ]; then block=tcp; else block=udp; fi
	for i in 1 2 3 4; do
		nsx "$P-r$i" iptables -A okeytransport -p "$block" -j DROP
	done
}

# check_impairment I: the RTT, loss and duplicates from home I to the
# relay host are what its link's impairment should give (the relay host's
# own link is not impaired), within bounds; else the cell does not count.
check_impairment() {
	local i=$1 tcp=""
	[ "${TYPE[$i]}" != udpblock ] || tcp=tcp
	if nl_impair_check "$P-h$i" "$NET.2:3478" "$IMPAIR" $tcp; then
		echo "home $i (${TYPE[$i]}): $NL_IMPAIR_MEASURED" >>"$CELL/impairment.txt"
	else
		echo "home $i (${TYPE[$i]}): $NL_IMPAIR_MEASURED" >>"$CELL/impairment.txt"
		echo "$NL_IMPAIR_WHY" >"$CELL/impair-check.$i"
		die "cell $CELL_NAME: home $i's impairment did not take effect as set ($IMPAIR): $NL_IMPAIR_WHY; measured: $NL_IMPAIR_MEASURED"
	fi
}

declare -A BOT_PID TYPE HOSTADDR
start_bot() { # start_bot I ARGS... (standard input: the file $CELL/code.I, else none)
	local i=$1 listen in=/dev/null
	shift
	case "$TRANSPORT" in
	quic) listen=(--listen /ip4/0.0.0.0/udp/0/quic-v1) ;;
	tcp) listen=(--listen /ip4/0.0.0.0/tcp/0) ;;
	*) listen=(--listen /ip4/0.0.0.0/tcp/0 --listen /ip4/0.0.0.0/udp/0/quic-v1) ;;
	esac
	[ ! -f "$CELL/code.$i" ] || in="$CELL/code.$i"
	now_ms >"$CELL/start.$i"
	local BOT_ENV=()
	[ "$FAULT" != no-forward ] || [ "$i" != 1 ] || BOT_ENV=(OKEY_LAB_NO_FORWARD=1)
	BOT_STDIN=$in lab_bot "$P-h$i" "bot$i" "$CELL/data.$i" "$CELL/out.$i" "$CELL/bot$i.out" "$CELL/bot$i.log" --no-mdns \
		--withhold 60s --wait "${FORM_TIMEOUT}s" "${listen[@]}" --log "$CELL/bot$i.log" "$@"
	BOT_PID[$i]=$LAB_BOT_PID
	CELL_PIDS+=("$LAB_BOT_PID")
}

teardown_cell() {
	kill -CONT "$RELAY_PID" 2>/dev/null || true # a relay-stop fault cut short
	nl_teardown CELL_PIDS CELL_NSES
}

# run_cell TYPES TRANSPORT RELAYMODE RUN
run_cell() {
	local types=$1 i code deadline t
	TRANSPORT=$2
	local mode=$3 run=$4
	CELLNO=$((CELLNO + 1))
	CELL_NAME="$types/$TRANSPORT/$mode/$run"
	CELL="$WORK/cell.$(echo "$types-$TRANSPORT-$mode-$run" | tr ',' '_')"
	mkdir -p "$CELL"
	IFS=, read -r "TYPE[1]" "TYPE[2]" "TYPE[3]" "TYPE[4]" <<<"$types"
	for i in 1 2 3 4; do home "$i" "${TYPE[$i]}"; done
	routes
	# Each router as its type says (a fresh xt_recent list first: earlier
	# probes' addresses would open an address-restricted router).
	for i in 1 2 3 4; do
		[ "${TYPE[$i]}" != addr ] || nsx "$P-r$i" sh -c 'echo / >/proc/net/xt_recent/okeyout'
		nsx "$P-h$i" "$NATLAB" probe -a "$NET.2" -b "$NET.3" -port 3478 -local "${HOSTADDR[$i]}" -expect "$(probe_name "${TYPE[$i]}")" \
			>>"$CELL/probe.txt" 2>&1 || die "cell $CELL_NAME: home $i's router is not ${TYPE[$i]}: $(tail -2 "$CELL/probe.txt")"
		[ "${TYPE[$i]}" != addr ] || nsx "$P-r$i" sh -c 'echo / >/proc/net/xt_recent/okeyout'
	done
	for i in 1 2 3 4; do check_impairment "$i"; done
	transport "$TRANSPORT"

	local relay_args=()
	if [ "$mode" = relay ]; then
		if [ "$TRANSPORT" = quic ]; then relay_args=(--relay "$RELAY_QUIC"); else relay_args=(--relay "$RELAY_TCP"); fi
	else
		relay_args=(--relay none)
	fi
	local registered
	registered=$(grep -c 'msg="relay request".*kind=[14] .*status=0' "$WORK/relay.log" || true)
	local creator_args=("${relay_args[@]}")
	if [ "$mode" = relay ]; then creator_args=(--relay "${relay_args[1]}/okey-key/$RELAY_KEY"); fi
	if [ "$mode" = relay ] && [ "$TRANSPORT" = both ]; then
		creator_args=(--relay "$RELAY_LINE")
		relay_args=()
	fi
	start_bot 1 --create --players 4 --preset "$RULES" "${creator_args[@]}"
	deadline=$(($(date +%s) + 30))
	until grep -q 'msg="bot started"' "$CELL/bot1.log" 2>/dev/null; do
		[ "$(date +%s)" -lt "$deadline" ] || die "cell $CELL_NAME: bot 1 did not start"
		sleep 0.1
	done
	until grep -q '^invite: ' "$CELL/bot1.out" 2>/dev/null; do
		[ "$(date +%s)" -lt "$deadline" ] || die "cell $CELL_NAME: bot 1 printed no invite code"
		sleep 0.1
	done
	code=$(grep -m1 '^invite: ' "$CELL/bot1.out" | cut -d' ' -f2)
	if [ "$mode" = relay ]; then
		deadline=$(($(date +%s) + 40))
		until [ "$(grep -c 'msg="relay request".*kind=[14] .*status=0' "$WORK/relay.log")" -gt "$registered" ]; do
			[ "$(date +%s)" -lt "$deadline" ] || die "cell $CELL_NAME: the creator never registered its table with the relay"
			sleep 0.2
		done
	fi
	for i in 2 3 4; do
		echo "$code" >"$CELL/code.$i"
		start_bot "$i" --code - "${relay_args[@]}"
	done

	# Faults, once the match is under way.
	if [ -n "$FAULT" ]; then fault "$FAULT" & CELL_PIDS+=("$!"); fi

	deadline=$(($(date +%s) + FORM_TIMEOUT + TIMEOUT))
	for i in 1 2 3 4; do
		while kill -0 "${BOT_PID[$i]}" 2>/dev/null; do
			# Once every joiner has given up, the creator's wait is moot.
			if [ "$i" = 1 ] && ! kill -0 "${BOT_PID[2]}" 2>/dev/null && ! kill -0 "${BOT_PID[3]}" 2>/dev/null &&
				! kill -0 "${BOT_PID[4]}" 2>/dev/null && ! grep -q 'msg="table ready"' "$CELL/bot1.log"; then
				kill "${BOT_PID[1]}" 2>/dev/null || true
			fi
			if [ "$(date +%s)" -ge "$deadline" ]; then
				echo "timeout" >"$CELL/timeout.$i"
				kill "${BOT_PID[$i]}" 2>/dev/null || true
				sleep 1
				kill -9 "${BOT_PID[$i]}" 2>/dev/null || true
			fi
			sleep 0.2
		done
		t=0
		wait "${BOT_PID[$i]}" || t=$?
		echo "$t" >"$CELL/exit.$i"
		now_ms >"$CELL/end.$i"
	done
	for i in 1 2 3 4; do
		f=$(ls "$CELL/out.$i"/*.okey 2>/dev/null | head -1 || true)
		if [ -n "$f" ]; then
			if "$OKEY" verify "$f" >"$CELL/verify.$i" 2>&1; then echo ok >>"$CELL/verify.$i"; fi
			sha256sum "$f" | cut -d' ' -f1 >"$CELL/sha.$i"
		fi
	done
	echo "$types" >"$CELL/types"
	echo "$TRANSPORT" >"$CELL/transport"
	echo "$mode" >"$CELL/mode"
	echo "$IMPAIR" >"$CELL/impair"
	echo "${FAULT:-}" >"$CELL/fault"
	# Nothing tried to leave the lab.
	local leaked
	leaked=$(nl_leaks "$P-r1" "$P-r2" "$P-r3" "$P-r4")
	[ "$leaked" -eq 0 ] || die "cell $CELL_NAME: $leaked packets for addresses outside the lab reached a router"
	"$NATLAB" report "$CELL" | tee -a "$RESULTS"
	teardown_cell
}

# fault KIND: one fault, 3 s into the first hand (bot 1's log).
fault() {
	until grep -q 'msg="hand started"' "$CELL/bot1.log" 2>/dev/null; do sleep 0.2; done
	sleep 3
	case $1 in
	relay-stop)
		# The relay goes away for 20 s (SIGSTOP: its connections hang, as
		# when its host vanishes), then comes back.
		echo "$(now_ms) relay stopped" >>"$CELL/fault.log"
		kill -STOP "$RELAY_PID"
		sleep 20
		kill -CONT "$RELAY_PID"
		echo "$(now_ms) relay back" >>"$CELL/fault.log"
		;;
	rebind)
		# Home 2's router forgets its mappings (conntrack flushed) and
		# moves to other ports: every later mapping gets a new public port.
		# (MASQUERADE's mappings are flushed when its interface goes down.)
		echo "$(now_ms) home 2 rebinds" >>"$CELL/fault.log"
		nsx "$P-r2" iptables -t nat -I POSTROUTING -o wan0 -p udp -j MASQUERADE --to-ports 40000-40999
		nsx "$P-r2" iptables -t nat -I POSTROUTING -o wan0 -p tcp -j MASQUERADE --to-ports 40000-40999
		ip -n "$P-r2" link set wan0 down
		ip -n "$P-r2" link set wan0 up
		routes # the routes through wan0 went with it
		;;
	no-forward)
		# Member 1 (the creator) forwards none of the others' messages from
		# its start (OKEY_LAB_NO_FORWARD=1, set by start_bot): nothing to do.
		;;
	member-stop)
		# Member 1 (the creator) stops forwarding for others: SIGSTOP, so its
		# connections stay up and carry nothing, for 30 s.
		echo "$(now_ms) bot 1 stopped" >>"$CELL/fault.log"
		kill -STOP "${BOT_PID[1]}"
		sleep 30
		kill -CONT "${BOT_PID[1]}"
		echo "$(now_ms) bot 1 back" >>"$CELL/fault.log"
		;;
	esac
}

CELLNO=0
"$NATLAB" report -header | tee "$RESULTS"
for cell in $CELLS; do
	for tr in $TRANSPORTS; do
		for mode in $RELAYS_MODES; do
			for run in $(seq 1 "$REPEAT"); do
				run_cell "$cell" "$tr" "$mode" "$run"
			done
		done
	done
done

nl_root_links "$WORK/root-links.after"
nl_root_links_check "$WORK/root-links.before" "$WORK/root-links.after" || die "see above"
say "table written to $RESULTS"
if [ -z "${KEEP:-}" ] && [[ "$RESULTS" == "$WORK"/* ]]; then
	cp "$RESULTS" "/tmp/$(basename "$RESULTS")"
	say "(copied to /tmp/$(basename "$RESULTS"); the work directory is removed)"
fi
