#!/usr/bin/env bash
# lan-test.sh: end-to-end test of okey on a simulated LAN.
#
# As root, it makes 4 network namespaces joined by veth pairs to a bridge (in
# one more namespace) and runs one `okey bot` in each, with its own data
# directory. The bots know nothing of each other: they must find each other
# by mDNS, meet at one table, play a whole match (turkish-rummy:rounds=1)
# and save transcripts that `okey verify` accepts and that are identical.
# A second run kills one bot with SIGKILL in the middle of the hand, starts
# it again with the same data directory, and the match must still finish,
# with identical verified transcripts.
#
# mDNS never touches the machine's own interfaces: the bots run only inside
# the namespaces. Names carry this script's PID, so parallel runs do not
# clash; everything is removed on exit, even after a failure.
#
# usage: sudo scripts/lan-test.sh
# env:   OKEY=path      use a prebuilt okey binary (default: go build it)
#        TIMEOUT=120    seconds each run may take
#        KEEP=1         keep the work directory (logs, transcripts)
#        SETTLE=500ms   how long each bot listens for open tables before opening one
set -euo pipefail

N=4
TIMEOUT=${TIMEOUT:-120}
RULES=turkish-rummy:rounds=1
ID=$$
BR_NS="okey-br-$ID"
WORK=$(mktemp -d /tmp/okey-lan-test.XXXXXX)
NSES=()
PIDS=()

cleanup() {
	local p ns
	for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
	for ns in "${NSES[@]}"; do ip netns del "$ns" 2>/dev/null || true; done
	if [ -n "${KEEP:-}" ]; then echo "lan-test: work directory kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

die() {
	echo "lan-test: FAIL: $*" >&2
	local f
	for f in "$WORK"/run*/log.*; do
		[ -f "$f" ] || continue
		echo "--- $f (last 15 lines)" >&2
		tail -15 "$f" >&2
	done
	exit 1
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

[ "$(id -u)" -eq 0 ] || die "must run as root (network namespaces)"
command -v ip >/dev/null || die "the ip command (iproute2) is missing"

cd "$(dirname "$0")/.."
if [ -z "${OKEY:-}" ]; then
	OKEY="$WORK/okey"
	go build -o "$OKEY" ./cmd/okey
fi
[ -x "$OKEY" ] || die "okey binary $OKEY is not executable"

. scripts/netns-lan.sh
make_lan "$N"

# start_bot RUN I: starts bot I of run RUN in its namespace, in the
# background; its pid goes into BOT_PID[I].
declare -A BOT_PID
start_bot() {
	local run=$1 i=$2 dir="$WORK/run$1"
	mkdir -p "$dir/data.$i" "$dir/out.$i"
	ip netns exec "okey-p$i-$ID" "$OKEY" bot --name "bot$i" --data "$dir/data.$i" --out "$dir/out.$i" \
		--players "$N" --preset "$RULES" --withhold 60s --wait 60s --settle "${SETTLE:-500ms}" \
		--listen /ip4/0.0.0.0/tcp/0 --listen /ip4/0.0.0.0/udp/0/quic-v1 -v \
		>>"$dir/stdout.$i" 2>>"$dir/log.$i" &
	BOT_PID[$i]=$!
	PIDS+=("$!")
}

# wait_all RUN: waits for every bot of a run (bounded by TIMEOUT) and checks
# exit codes, summaries and transcripts.
wait_all() {
	local run=$1 dir="$WORK/run$1" i deadline code
	deadline=$(($(date +%s) + TIMEOUT))
	for i in $(seq 1 "$N"); do
		while kill -0 "${BOT_PID[$i]}" 2>/dev/null; do
			[ "$(date +%s)" -lt "$deadline" ] || die "run $run: bot $i still running after ${TIMEOUT}s"
			sleep 0.2
		done
		code=0
		wait "${BOT_PID[$i]}" || code=$?
		[ "$code" -eq 0 ] || die "run $run: bot $i exited $code: $(cat "$dir/stdout.$i")"
	done
	local first="" f
	for i in $(seq 1 "$N"); do
		grep -q '^match 1: table .*; verified; transcript ' "$dir/stdout.$i" || die "run $run: bot $i printed no summary"
		f=$(ls "$dir/out.$i"/*.okey 2>/dev/null | head -1)
		[ -n "$f" ] || die "run $run: bot $i saved no transcript"
		"$OKEY" verify "$f" >/dev/null || die "run $run: okey verify rejects bot $i's transcript $f"
		if [ -z "$first" ]; then first=$f; else cmp -s "$first" "$f" || die "run $run: transcripts of bot 1 and bot $i differ"; fi
	done
	echo "run $run: transcripts identical and verified: $("$OKEY" verify "$first")"
	for i in $(seq 1 "$N"); do echo "  bot $i: $(cat "$dir/stdout.$i")"; done
}

# Run 1: four strangers meet by mDNS and play.
t0=$(now_ms)
for i in $(seq 1 "$N"); do start_bot 1 "$i"; done
wait_all 1
echo "run 1: done in $(($(now_ms) - t0)) ms"
for i in $(seq 1 "$N"); do
	echo "  bot $i: $(grep -o 'msg="table started".*' "$WORK/run1/log.$i" | grep -o 'took=[^ ]*' | sed 's/took=/seated after /'), $(grep -o 'msg=timing.*' "$WORK/run1/log.$i" | sed 's/msg=timing table=[^ ]* //')"
done

# Run 2: bot 4 is killed with SIGKILL in the middle of the hand; once the
# others say they wait for it, it is restarted with the same data directory.
t0=$(now_ms)
for i in $(seq 1 "$N"); do start_bot 2 "$i"; done
victim=$N
log="$WORK/run2/log.$victim"
deadline=$(($(date +%s) + TIMEOUT))
# Mid-hand: 40 steps are past the hellos, shuffles, re-keys and the deal of
# 4 players (about 24 steps): the bots are drawing and discarding.
until [ "$(grep -c 'msg=step ' "$log" 2>/dev/null || true)" -ge 40 ]; do
	kill -0 "${BOT_PID[$victim]}" 2>/dev/null || die "run 2: bot $victim ended before it could be killed"
	[ "$(date +%s)" -lt "$deadline" ] || die "run 2: bot $victim never reached the middle of the hand"
	sleep 0.05
done
kill -9 "${BOT_PID[$victim]}"
wait "${BOT_PID[$victim]}" 2>/dev/null || true
killed_at=$(grep -c 'msg=step ' "$log")
echo "run 2: bot $victim killed with SIGKILL after $killed_at steps"
# The others wait for it, saying whom they wait for (and that it is gone).
until grep -q "msg=waiting .*for=bot$victim .*connected=false" "$WORK"/run2/log.[1-3] 2>/dev/null; do
	[ "$(date +%s)" -lt "$deadline" ] || die "run 2: no bot logged that it waits for bot $victim"
	sleep 0.1
done
echo "run 2: $(grep -h "msg=waiting .*for=bot$victim" "$WORK"/run2/log.[1-3] | head -1 | sed 's/^time=[^ ]* level=INFO //')"
echo "--- restarted ---" >>"$log"
start_bot 2 "$victim"
wait_all 2
grep -q 'resumed at message' "$WORK/run2/stdout.$victim" || die "run 2: bot $victim did not resume its match"
echo "run 2: done in $(($(now_ms) - t0)) ms"
echo "lan-test: ok"
