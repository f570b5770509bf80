#!/usr/bin/env bash
# tournament.sh: an 8-player, 3-round Swiss tournament of okey bots on a
# simulated LAN (issue 27).
#
# As root, it makes 8 network namespaces joined by veth pairs to a bridge
# (scripts/netns-lan.sh) and runs one okey process in each, with its own
# data directory and tournament folder: `okey tournament create --open` in
# the first (a LAN party: open registration, no invite code), `okey
# tournament join` in the others. They find each other by mDNS,
# register, draw each round's seats by commit-reveal, play two 4-seat tables
# a round (classic:points=2, short matches), fetch the transcripts they lack
# and print the final standings. Then `okey verify FOLDER` runs on every
# participant's folder: every one must exit 0, and the outputs must be the
# same byte for byte.
#
# mDNS never touches the machine's own interfaces: the processes run only
# inside the namespaces. Everything is removed on exit, even after a failure.
#
# usage: sudo scripts/tournament.sh
# env:   OKEY=path      use a prebuilt okey binary (default: go build it)
#        TIMEOUT=900    seconds the tournament may take
#        ROUNDS=3 PLAYERS=8 PRESET=classic:points=2
#        KEEP=1         keep the work directory (logs, folders)
set -euo pipefail

N=${PLAYERS:-8}
ROUNDS=${ROUNDS:-3}
PRESET=${PRESET:-classic:points=2}
TIMEOUT=${TIMEOUT:-900}
ID=$$
BR_NS="okey-br-$ID"
WORK=$(mktemp -d /tmp/okey-tournament.XXXXXX)
# shellcheck disable=SC2034 # read through NL_NS_VAR/NL_PID_VAR (natlab-lib.sh's namerefs)
NSES=()
PIDS=()
# shellcheck source=netns-lan.sh
. "$(dirname "$0")/netns-lan.sh"

cleanup() {
	lan_teardown
	if [ -n "${KEEP:-}" ]; then echo "tournament: work directory kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

die() {
	echo "tournament: FAIL: $*" >&2
	local f
	for f in "$WORK"/log.*; do
		[ -f "$f" ] || continue
		echo "--- $f (last 10 lines)" >&2
		tail -10 "$f" >&2
	done
	exit 1
}

[ "$(id -u)" -eq 0 ] || die "must run as root (network namespaces)"
command -v ip >/dev/null || die "the ip command (iproute2) is missing"

cd "$(dirname "$0")/.."
if [ -z "${OKEY:-}" ]; then
	OKEY="$WORK/okey"
	go build -o "$OKEY" ./cmd/okey
fi
[ -x "$OKEY" ] || die "okey binary $OKEY is not executable"

make_lan "$N"

t0=$(date +%s)
for i in $(seq 1 "$N"); do
	if [ "$i" -eq 1 ]; then
		args=(tournament create --open --players "$N" --rounds "$ROUNDS" --preset "$PRESET" --title "lan cup")
	else
		args=(tournament join)
	fi
	ip netns exec "okey-p$i-$ID" "$OKEY" "${args[@]}" --bot --name "bot$i" --data "$WORK/data.$i" --dir "$WORK/folder.$i" \
		--withhold 60s --linger 30s --wait "${TIMEOUT}s" \
		--listen /ip4/0.0.0.0/tcp/0 --listen /ip4/0.0.0.0/udp/0/quic-v1 -v \
		>"$WORK/out.$i" 2>"$WORK/log.$i" &
	PIDS+=("$!")
done

for i in $(seq 1 "$N"); do
	code=0
	wait "${PIDS[$((i - 1))]}" || code=$?
	[ "$code" -eq 0 ] || die "participant $i exited $code: $(tail -5 "$WORK/out.$i")"
done
t1=$(date +%s)
echo "tournament: $N players, $ROUNDS rounds ($PRESET) finished in $((t1 - t0)) s (including each participant's 30 s linger)"

for i in $(seq 1 "$N"); do
	code=0
	"$OKEY" verify "$WORK/folder.$i" >"$WORK/verify.$i" || code=$?
	[ "$code" -eq 0 ] || die "okey verify on participant $i's folder exited $code: $(cat "$WORK/verify.$i")"
	cmp -s "$WORK/verify.1" "$WORK/verify.$i" || die "okey verify on the folders of participants 1 and $i differ: $(diff "$WORK/verify.1" "$WORK/verify.$i" | head -20)"
done
echo "tournament: okey verify on all $N folders exits 0 and prints the same, byte for byte:"
cat "$WORK/verify.1"
