#!/usr/bin/env bash
# lan-discovery.sh: check okey's mDNS discovery on a simulated LAN.
#
# As root, it makes N network namespaces (default 4) joined by veth pairs to
# a bridge in one more namespace, runs p2p/internal/mdnsprobe in each, and
# exits 0 when every probe found the other N-1 peers within the deadline.
# mDNS never touches the machine's own interfaces: the probes run only
# inside the namespaces. Names carry this script's PID, so parallel runs do
# not clash, and everything is removed on exit, even after a failure.
#
# usage: sudo scripts/lan-discovery.sh [N]
# env:   PROBE=path   use a prebuilt mdnsprobe (default: go build it)
#        TIMEOUT=20s  per-probe deadline
set -euo pipefail

N=${1:-4}
TIMEOUT=${TIMEOUT:-20s}
ID=$$
BR_NS="okey-br-$ID"
WORK=$(mktemp -d)
# shellcheck disable=SC2034 # read through NL_NS_VAR/NL_PID_VAR (natlab-lib.sh's namerefs)
NSES=()
PIDS=()
# shellcheck source=netns-lan.sh
. "$(dirname "$0")/netns-lan.sh"

cleanup() {
	lan_teardown
	rm -rf "$WORK"
}
trap cleanup EXIT

die() { echo "lan-discovery: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "must run as root (network namespaces)"
command -v ip >/dev/null || die "the ip command (iproute2) is missing"
[[ "$N" =~ ^[0-9]+$ ]] && [ "$N" -ge 2 ] && [ "$N" -le 20 ] || die "N must be 2..20, got $N"

cd "$(dirname "$0")/.."
if [ -z "${PROBE:-}" ]; then
	PROBE="$WORK/mdnsprobe"
	go build -o "$PROBE" ./p2p/internal/mdnsprobe
fi
[ -x "$PROBE" ] || die "probe $PROBE is not executable"

make_lan "$N"

start=$(date +%s%N)
for i in $(seq 1 "$N"); do
	ip netns exec "okey-p$i-$ID" env OKEY_NETNS_TEST=1 "$PROBE" -peers $((N - 1)) -timeout "$TIMEOUT" \
		>"$WORK/out.$i" 2>"$WORK/err.$i" &
	PIDS+=("$!")
done

fail=0
for i in $(seq 1 "$N"); do
	if ! wait "${PIDS[$((i - 1))]}"; then
		fail=1
	fi
	echo "peer $i: $(cat "$WORK/out.$i")"
done
PIDS=()
echo "all probes done in $(( ($(date +%s%N) - start) / 1000000 )) ms (includes a 3 s linger)"
if [ "$fail" -ne 0 ]; then
	for i in $(seq 1 "$N"); do echo "--- peer $i stderr"; tail -20 "$WORK/err.$i"; done >&2
	die "not every peer found the others"
fi
echo "lan-discovery: ok: $N peers found each other over mDNS"
