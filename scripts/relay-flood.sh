#!/usr/bin/env bash
# relay-flood.sh: the relay flood figure. Starts `okey relay` on 127.0.0.1,
# runs p2p's TestRelayFlood against it (two admitted members exchange a
# move every 50 ms each way through the relay while 100 stranger identities
# make 1,000 reservation, circuit and wrong-token attempts), then reports
# the relay process's peak RSS (VmHWM) and fails above 64 MB.
#
# usage: scripts/relay-flood.sh     (loopback only; no root needed)
# env:   OKEY=path   a prebuilt okey binary (default: go build it)
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=$(mktemp -d /tmp/okey-relay-flood.XXXXXX)
RELAY_PID=
cleanup() {
	[ -n "$RELAY_PID" ] && kill "$RELAY_PID" 2>/dev/null && wait "$RELAY_PID" 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT
if [ -z "${OKEY:-}" ]; then
	OKEY="$WORK/okey"
	go build -o "$OKEY" ./cmd/okey
fi
mkdir -p "$WORK/relay"
"$OKEY" relay --data "$WORK/relay" --listen /ip4/127.0.0.1/tcp/0 >"$WORK/relay.out" 2>"$WORK/relay.log" &
RELAY_PID=$!
for _ in $(seq 100); do grep -q '^relay: ' "$WORK/relay.out" && break; sleep 0.1; done
ADDR=$(grep -m1 '^relay: ' "$WORK/relay.out" | cut -d' ' -f2)
[ -n "$ADDR" ] || { echo "relay-flood: FAIL: the relay printed no address" >&2; cat "$WORK/relay.log" >&2; exit 1; }
echo "relay: $ADDR (pid $RELAY_PID), RSS at start $(awk '/VmRSS/ {print $2, $3}' /proc/$RELAY_PID/status)"
OKEY_RELAY_FLOOD="$ADDR" OKEY_RELAY_FLOOD_DATA="$WORK/relay" go test -count=1 -v -run '^TestRelayFlood$' -timeout 5m ./p2p/ | grep -E 'flood:|^(--- |ok|FAIL)'
hwm=$(awk '/VmHWM/ {print $2}' /proc/$RELAY_PID/status)
rss=$(awk '/VmRSS/ {print $2}' /proc/$RELAY_PID/status)
echo "relay: peak RSS $((hwm / 1024)) MB ($hwm kB), RSS now $((rss / 1024)) MB"
kill -INT "$RELAY_PID"
code=0; wait "$RELAY_PID" || code=$?
RELAY_PID=
[ "$code" -eq 0 ] || { echo "relay-flood: FAIL: the relay exited $code on SIGINT" >&2; exit 1; }
[ "$hwm" -lt $((64 * 1024)) ] || { echo "relay-flood: FAIL: peak RSS ${hwm} kB is not under 64 MB" >&2; exit 1; }
echo "relay-flood: ok"
