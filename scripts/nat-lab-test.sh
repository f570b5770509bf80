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
# the cone homes; the symmetric home stays relayed). The creator holds the
# relay's line (its key), as friends set a relay up; the relay has no
# allow-list.
#
# With OUTAGE=S (make nat-lab-outage) the relay goes away 0.3 s into the
# first hand (a hand takes a second or two here) for S seconds and comes back (OUTAGE_KIND=kill: the process is
# killed and started again on the same ports with the same data, as an
# operator restarts it; stop: SIGSTOP, then SIGCONT, as when its host
# vanishes and returns). The symmetric home reaches the others only through
# the relay, so the table stalls. The script measures, per bot, the time
# from the relay's return to the first move it applies after it, prints
# the figures, and fails when a bot took more than OUTAGE_MAX seconds.
#
# usage: sudo scripts/nat-lab-test.sh
# env:   OKEY=path      a prebuilt okey binary (default: go build it)
#        TIMEOUT=150    seconds the match may take
#        RULES=classic  the ruleset of the match
#        OUTAGE=S       a relay outage of S seconds (default none)
#        OUTAGE_KIND=kill|stop   how the relay goes away (default kill)
#        OUTAGE_MAX=10  the longest wait allowed from the relay's return to
#                       a bot's next applied move
#        KEEP=1         keep the work directory (logs, transcripts)
set -euo pipefail

TIMEOUT=${TIMEOUT:-150}
RULES=${RULES:-classic}
OUTAGE=${OUTAGE:-}
OUTAGE_KIND=${OUTAGE_KIND:-kill}
OUTAGE_MAX=${OUTAGE_MAX:-10}
# A bot gives up on a silent seat after WITHHOLD: longer than the outage.
WITHHOLD=60
[ -z "$OUTAGE" ] || WITHHOLD=$((OUTAGE + 60))
ID=$$
P="okeynat-$ID"
NET=11.77.0
WORK=$(mktemp -d /tmp/okey-nat-lab.XXXXXX)
# shellcheck source=natlab-lib.sh
. "$(dirname "$0")/natlab-lib.sh"
# shellcheck source=bot-lib.sh
. "$(dirname "$0")/bot-lib.sh"

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
# start_relay: okey relay on fixed ports (a restart keeps its addresses, its
# identity and its tables, which it keeps in its data directory); waits
# until it listens.
start_relay() {
	: >"$WORK/relay.out"
	ip netns exec "$P-relay" "$OKEY" relay --data "$WORK/relay" --listen "/ip4/0.0.0.0/tcp/4001" --listen "/ip4/0.0.0.0/udp/4001/quic-v1" -v \
		>"$WORK/relay.out" 2>>"$WORK/relay.log" &
	RELAY_PID=$!
	nl_track_pid "$RELAY_PID"
	local deadline=$(($(date +%s) + 20))
	until [ "$(grep -c '^relay: ' "$WORK/relay.out" 2>/dev/null || true)" -ge 2 ] && grep -q '^relay line: ' "$WORK/relay.out" 2>/dev/null; do
		[ "$(date +%s)" -lt "$deadline" ] || die "the relay printed no addresses or no relay line"
		sleep 0.05
	done
}
start_relay
# The creator registers with the relay's key, as a friend given the relay's
# line does (issue 36): every relay address on the internet with the line's
# key, so that the table is reached over TCP and QUIC.
KEY=$(grep -m1 '^relay line: ' "$WORK/relay.out" | sed 's|.*/okey-key/||')
[ -n "$KEY" ] || die "the relay's line holds no key: $(cat "$WORK/relay.out")"
RELAYS=()
# shellcheck disable=SC2013 # one address a line, no spaces
for a in $(grep '^relay: ' "$WORK/relay.out" | cut -d' ' -f2 | grep "/ip4/$NET.2/"); do RELAYS+=(--relay "$a/okey-key/$KEY"); done
[ ${#RELAYS[@]} -ge 2 ] || die "the relay printed no address on $NET.2: $(cat "$WORK/relay.out")"
echo "nat-lab: relay up: $(grep '^relay: ' "$WORK/relay.out" | cut -d' ' -f2 | grep "/ip4/$NET.2/" | tr '\n' ' ')(the creator holds its line)"

declare -A BOT_PID
# start_bot I ARGS...: bot I in home I.
start_bot() {
	local i=$1
	shift
	lab_bot "$P-h$i" "bot$i" "$WORK/data.$i" "$WORK/out.$i" "$WORK/bot$i.out" "$WORK/bot$i.log" --no-mdns \
		--withhold "${WITHHOLD}s" --wait "${TIMEOUT}s" --listen /ip4/0.0.0.0/tcp/0 --listen /ip4/0.0.0.0/udp/0/quic-v1 \
		--log "$WORK/bot$i.log" "$@"
	BOT_PID[$i]=$LAB_BOT_PID
	nl_track_pid "$LAB_BOT_PID"
}

# --- the creator, in home 1 ---
start_bot 1 --create --players 4 --preset "$RULES" "${RELAYS[@]}"
deadline=$(($(date +%s) + 30))
until grep -q 'msg="bot started"' "$WORK/bot1.log" 2>/dev/null; do
	[ "$(date +%s)" -lt "$deadline" ] || die "bot 1 did not start"
	sleep 0.1
done
until grep -q '^invite: ' "$WORK/bot1.out" 2>/dev/null; do
	[ "$(date +%s)" -lt "$deadline" ] || die "bot 1 printed no invite code"
	sleep 0.1
done
code=$(grep -m1 '^invite: ' "$WORK/bot1.out" | cut -d' ' -f2)
echo "nat-lab: invite code (${#code} characters)"
# The joiners wait until the relay has the table.
deadline=$(($(date +%s) + 40))
until grep -q 'msg="relay request".*kind=[14] .*status=0' "$WORK/relay.log" 2>/dev/null; do
	[ "$(date +%s)" -lt "$deadline" ] || die "the creator never registered its table with the relay"
	sleep 0.2
done

# --- the joiners, in homes 2-4: the code on standard input, nothing else ---
for i in 2 3 4; do
	echo "$code" >"$WORK/code.$i"
	BOT_STDIN="$WORK/code.$i" start_bot "$i" --code -
done

# now_ms: the time in milliseconds (all namespaces share one clock).
now_ms() { date +%s%3N; }

# outage: the relay goes away 0.3 s into the first hand for OUTAGE seconds.
outage() {
	until grep -q 'msg="hand started"' "$WORK/bot1.log" 2>/dev/null; do sleep 0.05; done
	sleep 0.3
	now_ms >"$WORK/outage.start"
	if [ "$OUTAGE_KIND" = stop ]; then
		kill -STOP "$RELAY_PID"
		sleep "$OUTAGE"
		kill -CONT "$RELAY_PID"
	else
		kill -9 "$RELAY_PID"
		while kill -0 "$RELAY_PID" 2>/dev/null; do sleep 0.05; done
		sleep "$OUTAGE"
		start_relay
	fi
	now_ms >"$WORK/outage.back"
}
if [ -n "$OUTAGE" ]; then
	outage &
	nl_track_pid "$!"
fi

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

# The outage: from the relay's return to each bot's first move applied
# after it (a bot logs each applied message as msg=step, with its time).
if [ -n "$OUTAGE" ]; then
	[ -f "$WORK/outage.back" ] || die "the match ended before the relay came back (the outage came too late)"
	back=$(cat "$WORK/outage.back")
	echo "nat-lab: relay outage ($OUTAGE_KIND) of $(((back - $(cat "$WORK/outage.start")) / 1000)) s"
	worst=0
	for i in 1 2 3 4; do
		t=""
		while read -r ts; do
			ms=$(date -d "$ts" +%s%3N)
			if [ "$ms" -ge "$back" ]; then t=$ms; break; fi
		done < <(grep 'msg=step ' "$WORK/bot$i.log" | sed 's/^time=\([^ ]*\) .*/\1/')
		[ -n "$t" ] || die "bot $i applied no move after the relay came back"
		d=$((t - back))
		echo "  bot $i: first move applied $((d / 1000)).$(printf '%03d' $((d % 1000))) s after the relay's return"
		[ "$d" -le "$worst" ] || worst=$d
	done
	echo "nat-lab: the table moved at every seat $((worst / 1000)).$(printf '%03d' $((worst % 1000))) s after the relay's return (allowed: ${OUTAGE_MAX} s)"
	echo "  'rate limit exceeded' lines in the bots' logs: $(cat "$WORK"/bot*.log | grep -c 'rate limit exceeded' || true)"
	[ "$worst" -le $((OUTAGE_MAX * 1000)) ] || die "a bot waited more than ${OUTAGE_MAX} s after the relay's return"
fi
for i in 1 2 3 4; do
	echo "  bot $i: $(grep 'msg=links' "$WORK/bot$i.log" | tail -1 | grep -o 'members=.*' || echo 'no links line (a match under 5 s)')"
done

# Nothing tried to leave the lab.
leaked=$(nl_leaks "$P-r1" "$P-r2" "$P-r3" "$P-r4")
[ "$leaked" -eq 0 ] || die "$leaked packets for addresses outside the lab reached a router"
echo "nat-lab: hole punches that made a direct link: $(cat "$WORK"/bot*.log | grep -c 'msg="hole punch: direct connection"' || true)"
echo "nat-lab: no packet for an address outside the lab"
echo "nat-lab: ok in $(($(date +%s) - t0)) s"
