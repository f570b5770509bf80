#!/usr/bin/env bash
# nat-lab-test.sh: the small NAT lab (issue 22). As root, in network
# namespaces it creates (names okeynat-<pid>-...), never touching the
# machine's own interfaces:
#
#   "internet"  a bridge in namespace okeynat-<pid>-inet, 11.77.0.0/24
#               (an address range libp2p counts as public; no route leads
#               out of the namespaces, and the script checks that none of
#               its interfaces is left in the machine's own namespace)
#   relay       okeynat-<pid>-relay, 11.77.0.2: `okey relay`
#   home i      okeynat-<pid>-hI (10.0.I.2) behind router okeynat-<pid>-rI
#               (10.0.I.1 / 11.77.0.1I), 4 homes:
#                 h1, h2, h4  port-restricted cone NAT: MASQUERADE, and the
#                             router forwards from the WAN only RELATED,
#                             ESTABLISHED packets (and answers nothing
#                             unsolicited itself: no reset, no ICMP)
#                 h3          symmetric NAT: MASQUERADE --random (a new
#                             port per destination), same FORWARD rule
#
# A bot in h1 creates a table with --relay and prints its invite code; the
# bots in h2-h4 join with `--code -` and nothing else (no mDNS, no --peer).
# The table must form and finish a match with identical transcripts that
# `okey verify` accepts. The match is a classic one (10 hands, about a
# minute here): long enough for the hole punches to happen while it plays.
# Each bot logs every 5 s how it reaches the others (direct: a hole punch
# worked; relayed); the script prints the last of those lines per bot and
# how many hole punches made a direct link (expected: the 3 links between
# the cone homes; the symmetric home stays relayed). The relay's creator
# allow-list gets h1's peer id from h1's log (the relay re-reads it at each
# registration).
#
# usage: sudo scripts/nat-lab-test.sh
# env:   OKEY=path      a prebuilt okey binary (default: go build it)
#        TIMEOUT=150    seconds the match may take
#        RULES=classic  the ruleset of the match
#        KEEP=1         keep the work directory (logs, transcripts)
set -euo pipefail

TIMEOUT=${TIMEOUT:-150}
RULES=${RULES:-classic}
ID=$$
P="okeynat-$ID"
NET=11.77.0
WORK=$(mktemp -d /tmp/okey-nat-lab.XXXXXX)
NSES=()
PIDS=()

cleanup() {
	local p ns
	for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
	# Whatever still runs in the lab's namespaces (a process started some
	# other way than with its id in PIDS) goes with them.
	for ns in "${NSES[@]}"; do
		for p in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$p" 2>/dev/null || true; done
		ip netns del "$ns" 2>/dev/null || true
	done
	if [ -n "${KEEP:-}" ]; then echo "nat-lab: work directory kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

die() {
	echo "nat-lab: FAIL: $*" >&2
	local f
	for f in "$WORK"/*.log "$WORK"/*.out; do
		[ -f "$f" ] || continue
		echo "--- $f (last 12 lines)" >&2
		tail -12 "$f" >&2
	done
	exit 1
}

[ "$(id -u)" -eq 0 ] || die "must run as root (network namespaces)"
command -v ip >/dev/null || die "the ip command (iproute2) is missing"
command -v iptables >/dev/null || die "iptables is missing"

cd "$(dirname "$0")/.."
if [ -z "${OKEY:-}" ]; then
	OKEY="$WORK/okey"
	go build -o "$OKEY" ./cmd/okey
fi
[ -x "$OKEY" ] || die "okey binary $OKEY is not executable"
t0=$(date +%s)

# The machine's own interfaces, to check that the lab leaves none there.
ip -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' | sort >"$WORK/root-links.before"

# nsx NS CMD...: CMD in namespace NS. Not for a command put in the
# background: `nsx ... &` forks a subshell, $! is the subshell's, and
# killing it leaves CMD running in the namespace after the lab is gone;
# `ip netns exec NS CMD &` execs CMD in the process whose id $! holds.
nsx() { ip netns exec "$@"; }

# --- the internet: a bridge in its own namespace ---
ip netns add "$P-inet"
NSES+=("$P-inet")
ip -n "$P-inet" link add br0 type bridge
ip -n "$P-inet" link set br0 up
ip -n "$P-inet" link set lo up

# attach NS IF ADDR: a veth from the internet bridge to interface IF of NS.
attach() {
	local ns=$1 ifname=$2 addr=$3 peer
	peer="okn$ID-$4"
	peer=${peer:0:15}
	ip link add "$peer" netns "$P-inet" type veth peer name "$ifname" netns "$ns"
	ip -n "$P-inet" link set "$peer" master br0
	ip -n "$P-inet" link set "$peer" up
	ip -n "$ns" addr add "$addr/24" dev "$ifname"
	ip -n "$ns" link set "$ifname" up
}

# --- the relay ---
ip netns add "$P-relay"
NSES+=("$P-relay")
ip -n "$P-relay" link set lo up
attach "$P-relay" eth0 "$NET.2" relay

# --- the homes, each behind its router ---
# home I NAT: cone (port-restricted) or symmetric.
home() {
	local i=$1 nat=$2 r="$P-r$1" h="$P-h$1"
	ip netns add "$r"
	NSES+=("$r")
	ip netns add "$h"
	NSES+=("$h")
	ip -n "$r" link set lo up
	ip -n "$h" link set lo up
	attach "$r" wan0 "$NET.1$i" "r$i"
	ip link add lan0 netns "$r" type veth peer name eth0 netns "$h"
	ip -n "$r" addr add "10.0.$i.1/24" dev lan0
	ip -n "$r" link set lan0 up
	ip -n "$h" addr add "10.0.$i.2/24" dev eth0
	ip -n "$h" link set eth0 up
	ip -n "$h" route add default via "10.0.$i.1"
	nsx "$r" sysctl -qw net.ipv4.ip_forward=1
	if [ "$nat" = symmetric ]; then
		nsx "$r" iptables -t nat -A POSTROUTING -o wan0 -j MASQUERADE --random
	else
		nsx "$r" iptables -t nat -A POSTROUTING -o wan0 -j MASQUERADE
	fi
	nsx "$r" iptables -A FORWARD -i wan0 -o lan0 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT
	nsx "$r" iptables -A FORWARD -i wan0 -j DROP
	# Like a home router, answer nothing unsolicited from the WAN (no
	# TCP reset, no ICMP unreachable: either would kill the other side's
	# half of a hole punch).
	nsx "$r" iptables -A INPUT -i wan0 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT
	nsx "$r" iptables -A INPUT -i wan0 -j DROP
	# What would leave the lab: a packet for an address that is neither
	# the lab's internet nor multicast. There is no interface to send it
	# on; it is counted and dropped, and the count must stay 0.
	nsx "$r" iptables -A FORWARD -o wan0 ! -d "$NET.0/24" -m addrtype ! --dst-type MULTICAST,BROADCAST -j DROP
	nsx "$r" iptables -A FORWARD -i lan0 -o wan0 -j ACCEPT
}
home 1 cone
home 2 cone
home 3 symmetric
home 4 cone

ip -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' | sort >"$WORK/root-links.after"
cmp -s "$WORK/root-links.before" "$WORK/root-links.after" ||
	die "the lab left an interface in the machine's own namespace: $(comm -13 "$WORK/root-links.before" "$WORK/root-links.after" | tr '\n' ' ')"
# No route from the internet to a home's private addresses: only the NAT.
ip -n "$P-relay" route get 10.0.1.2 >/dev/null 2>&1 && die "the relay has a route to home 1's private address"

# --- the relay ---
mkdir -p "$WORK/relay"
ip netns exec "$P-relay" "$OKEY" relay --data "$WORK/relay" --listen "/ip4/0.0.0.0/tcp/4001" --listen "/ip4/0.0.0.0/udp/4001/quic-v1" -v \
	>"$WORK/relay.out" 2>"$WORK/relay.log" &
PIDS+=("$!")
deadline=$(($(date +%s) + 20))
until [ "$(grep -c '^relay: ' "$WORK/relay.out" 2>/dev/null || true)" -ge 2 ]; do
	[ "$(date +%s)" -lt "$deadline" ] || die "the relay printed no addresses"
	sleep 0.1
done
RELAYS=()
for a in $(grep '^relay: ' "$WORK/relay.out" | cut -d' ' -f2 | grep "/ip4/$NET.2/"); do RELAYS+=(--relay "$a"); done
[ ${#RELAYS[@]} -ge 2 ] || die "the relay printed no address on $NET.2: $(cat "$WORK/relay.out")"
echo "nat-lab: relay up: ${RELAYS[*]}"

declare -A BOT_PID
# start_bot I ARGS...: bot I in home I.
start_bot() {
	local i=$1
	shift
	mkdir -p "$WORK/data.$i" "$WORK/out.$i"
	ip netns exec "$P-h$i" "$OKEY" bot --name "bot$i" --data "$WORK/data.$i" --out "$WORK/out.$i" --no-mdns \
		--withhold 60s --wait "${TIMEOUT}s" --listen /ip4/0.0.0.0/tcp/0 --listen /ip4/0.0.0.0/udp/0/quic-v1 -v \
		--log "$WORK/bot$i.log" "$@" >"$WORK/bot$i.out" 2>>"$WORK/bot$i.log" &
	BOT_PID[$i]=$!
	PIDS+=("$!")
}

# --- the creator, in home 1 ---
start_bot 1 --create --players 4 --preset "$RULES" "${RELAYS[@]}"
deadline=$(($(date +%s) + 30))
until grep -q 'msg="bot started"' "$WORK/bot1.log" 2>/dev/null; do
	[ "$(date +%s)" -lt "$deadline" ] || die "bot 1 did not start"
	sleep 0.1
done
creator=$(grep -m1 'msg="bot started"' "$WORK/bot1.log" | grep -o 'peer=[^ ]*' | cut -d= -f2)
echo "$creator" >"$WORK/relay/relay-allow"
until grep -q '^invite: ' "$WORK/bot1.out" 2>/dev/null; do
	[ "$(date +%s)" -lt "$deadline" ] || die "bot 1 printed no invite code"
	sleep 0.1
done
code=$(grep -m1 '^invite: ' "$WORK/bot1.out" | cut -d' ' -f2)
echo "nat-lab: invite code (${#code} characters)"
# The joiners wait until the relay has the table (the creator asks again
# every few seconds until the allow-list has it).
deadline=$(($(date +%s) + 40))
until grep -q 'msg="relay request".*kind=1 .*status=0' "$WORK/relay.log" 2>/dev/null; do
	[ "$(date +%s)" -lt "$deadline" ] || die "the creator never registered its table with the relay"
	sleep 0.2
done

# --- the joiners, in homes 2-4: the code on standard input, nothing else ---
for i in 2 3 4; do
	echo "$code" >"$WORK/code.$i"
	mkdir -p "$WORK/data.$i" "$WORK/out.$i"
	ip netns exec "$P-h$i" "$OKEY" bot --name "bot$i" --data "$WORK/data.$i" --out "$WORK/out.$i" --no-mdns \
		--withhold 60s --wait "${TIMEOUT}s" --listen /ip4/0.0.0.0/tcp/0 --listen /ip4/0.0.0.0/udp/0/quic-v1 -v \
		--log "$WORK/bot$i.log" --code - <"$WORK/code.$i" >"$WORK/bot$i.out" 2>>"$WORK/bot$i.log" &
	BOT_PID[$i]=$!
	PIDS+=("$!")
done

# --- the match ---
deadline=$(($(date +%s) + TIMEOUT))
for i in 1 2 3 4; do
	while kill -0 "${BOT_PID[$i]}" 2>/dev/null; do
		[ "$(date +%s)" -lt "$deadline" ] || die "bot $i still running after ${TIMEOUT}s"
		sleep 0.2
	done
	c=0
	wait "${BOT_PID[$i]}" || c=$?
	[ "$c" -eq 0 ] || die "bot $i exited $c: $(cat "$WORK/bot$i.out")"
done
first=""
for i in 1 2 3 4; do
	grep -q '^match 1: table .*; verified; transcript ' "$WORK/bot$i.out" || die "bot $i printed no summary"
	f=$(ls "$WORK/out.$i"/*.okey 2>/dev/null | head -1)
	[ -n "$f" ] || die "bot $i saved no transcript"
	"$OKEY" verify "$f" >/dev/null || die "okey verify rejects bot $i's transcript"
	if [ -z "$first" ]; then first=$f; else cmp -s "$first" "$f" || die "transcripts of bot 1 and bot $i differ"; fi
done
echo "nat-lab: 4 transcripts identical and verified: $("$OKEY" verify "$first")"
for i in 1 2 3 4; do
	echo "  bot $i: $(grep 'msg=links' "$WORK/bot$i.log" | tail -1 | grep -o 'members=.*' || echo 'no links line (a match under 5 s)')"
done

# Nothing tried to leave the lab.
leaked=0
for i in 1 2 3 4; do
	n=$(nsx "$P-r$i" iptables -vnx -L FORWARD | awk '/DROP/ && /!11\.77\.0\.0\/24/ {print $1}')
	leaked=$((leaked + ${n:-0}))
done
[ "$leaked" -eq 0 ] || die "$leaked packets for addresses outside the lab reached a router"
echo "nat-lab: hole punches that made a direct link: $(cat "$WORK"/bot*.log | grep -c 'msg="hole punch: direct connection"' || true)"
echo "nat-lab: no packet for an address outside the lab"
echo "nat-lab: ok in $(($(date +%s) - t0)) s"
