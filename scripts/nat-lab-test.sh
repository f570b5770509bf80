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
. "$(dirname "$0")/natlab-lib.sh"

cleanup() {
	nl_teardown NL_PIDS NL_NSES
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
nl_root_links "$WORK/root-links.before"

# The internet (a bridge in its own namespace), the relay host on it, and
# the homes, each behind its router (scripts/natlab-lib.sh).
nl_segment "$P-inet"
nl_ns "$P-relay"
nl_attach "$P-inet" "$P-relay" eth0 "$NET.2/24" "okn$ID-relay"
for i in 1 2 3 4; do
	nat=cone
	[ "$i" != 3 ] || nat=symmetric
	nl_home "$P-inet" "$P-r$i" "$P-h$i" "$NET.1$i" "10.0.$i" "$nat" "okn$ID-r$i"
done

nl_root_links "$WORK/root-links.after"
nl_root_links_check "$WORK/root-links.before" "$WORK/root-links.after" || die "see above"
# No route from the internet to a home's private addresses: only the NAT.
ip -n "$P-relay" route get 10.0.1.2 >/dev/null 2>&1 && die "the relay has a route to home 1's private address"

# --- the relay ---
mkdir -p "$WORK/relay"
ip netns exec "$P-relay" "$OKEY" relay --data "$WORK/relay" --listen "/ip4/0.0.0.0/tcp/4001" --listen "/ip4/0.0.0.0/udp/4001/quic-v1" -v \
	>"$WORK/relay.out" 2>"$WORK/relay.log" &
nl_track_pid "$!"
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
	nl_track_pid "$!"
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
	nl_track_pid "$!"
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
leaked=$(nl_leaks "$P-r1" "$P-r2" "$P-r3" "$P-r4")
[ "$leaked" -eq 0 ] || die "$leaked packets for addresses outside the lab reached a router"
echo "nat-lab: hole punches that made a direct link: $(cat "$WORK"/bot*.log | grep -c 'msg="hole punch: direct connection"' || true)"
echo "nat-lab: no packet for an address outside the lab"
echo "nat-lab: ok in $(($(date +%s) - t0)) s"
