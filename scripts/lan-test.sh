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
# with identical verified transcripts. A third run (when tmux is installed)
# opens a table from a player's lobby (okey play in tmux, namespace 1) with
# one of the lobby's bots, and a bot in namespace 2 takes the last seat: the
# table must open there within 2 s of the last ready with every member
# joined (the lobby's bot reachable from another computer, issue 24).
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
#        RUNS=123       which runs to do (digits)
set -euo pipefail

N=4
TIMEOUT=${TIMEOUT:-120}
RULES=turkish-rummy:rounds=1
ID=$$
BR_NS="okey-br-$ID"
WORK=$(mktemp -d /tmp/okey-lan-test.XXXXXX)
# shellcheck disable=SC2034 # read through NL_NS_VAR/NL_PID_VAR (natlab-lib.sh's namerefs)
NSES=()
PIDS=()
TMUX_SOCK=
RUNS=${RUNS:-123}
# shellcheck source=netns-lan.sh
. "$(dirname "$0")/netns-lan.sh"
# shellcheck source=bot-lib.sh
. "$(dirname "$0")/bot-lib.sh"

cleanup() {
	if [ -n "$TMUX_SOCK" ]; then tmux -L "$TMUX_SOCK" kill-server 2>/dev/null || true; fi
	lan_teardown
	if [ -n "${KEEP:-}" ]; then echo "lan-test: work directory kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

die() {
	echo "lan-test: FAIL: $*" >&2
	local f
	if [ -n "$TMUX_SOCK" ]; then
		echo "--- the lobby's screen" >&2
		tmux -L "$TMUX_SOCK" capture-pane -p -t lobby >&2 2>/dev/null || true
	fi
	for f in "$WORK"/run*/log.* "$WORK"/run*/data.p/okey.log; do
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

make_lan "$N"

# start_bot RUN I: starts bot I of run RUN in its namespace, in the
# background; its pid goes into BOT_PID[I].
declare -A BOT_PID
start_bot() {
	local run=$1 i=$2 dir="$WORK/run$1"
	lab_bot "okey-p$i-$ID" "bot$i" "$dir/data.$i" "$dir/out.$i" "$dir/stdout.$i" "$dir/log.$i" \
		--players "$N" --preset "$RULES" --withhold 60s --wait 60s --settle "${SETTLE:-500ms}" \
		--listen /ip4/0.0.0.0/tcp/0 --listen /ip4/0.0.0.0/udp/0/quic-v1
	BOT_PID[$i]=$LAB_BOT_PID
	PIDS+=("$LAB_BOT_PID")
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
if [[ $RUNS == *1* ]]; then
t0=$(now_ms)
for i in $(seq 1 "$N"); do start_bot 1 "$i"; done
wait_all 1
echo "run 1: done in $(($(now_ms) - t0)) ms"
for i in $(seq 1 "$N"); do
	echo "  bot $i: $(grep -o 'msg="table started".*' "$WORK/run1/log.$i" | grep -o 'took=[^ ]*' | sed 's/took=/seated after /'), $(grep -o 'msg=timing.*' "$WORK/run1/log.$i" | sed 's/msg=timing table=[^ ]* //')"
done
fi

# Run 2: bot 4 is killed with SIGKILL in the middle of the hand; once the
# others say they wait for it, it is restarted with the same data directory.
# A hand can end a few moves after the deal (a bot goes out at once): when
# bot 4 had already sent its hand's audit before it was killed, the others
# need nothing more of it, so run 2 starts again (3 tries).
if [[ $RUNS == *2* ]]; then
t0=$(now_ms)
victim=$N
log="$WORK/run2/log.$victim"
for try in 1 2 3; do
	rm -rf "$WORK/run2"
	for i in $(seq 1 "$N"); do start_bot 2 "$i"; done
	deadline=$(($(date +%s) + TIMEOUT))
	# Mid-hand: the third move expected is past the hellos, shuffles, re-keys
	# and the deal: the bots are drawing and discarding.
	until [ "$(grep -c 'msg=step .*next=move' "$log" 2>/dev/null || true)" -ge 3 ]; do
		kill -0 "${BOT_PID[$victim]}" 2>/dev/null || die "run 2: bot $victim ended before it could be killed"
		[ "$(date +%s)" -lt "$deadline" ] || die "run 2: bot $victim never reached the middle of the hand"
		sleep 0.05
	done
	kill -9 "${BOT_PID[$victim]}"
	wait "${BOT_PID[$victim]}" 2>/dev/null || true
	killed_at=$(grep 'msg=step ' "$log" | tail -1 | sed 's/.* step=\([0-9]*\).*/\1/')
	grep -q 'msg=sent .*kind=audit' "$log" || break
	echo "run 2 (try $try): bot $victim had sent its hand's audit before it was killed at step $killed_at (the hand was over): run 2 again"
	for i in $(seq 1 $((N - 1))); do
		kill -9 "${BOT_PID[$i]}" 2>/dev/null || true
		wait "${BOT_PID[$i]}" 2>/dev/null || true
	done
	[ "$try" -lt 3 ] || die "run 2: three matches were over before bot $victim could be missed"
done
echo "run 2: bot $victim killed with SIGKILL at step $killed_at"
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
fi

# Run 3: a lobby's bot and a player on another computer at one table.
# wait_file SECONDS FILE PATTERN: until FILE matches (grep -E).
wait_file() {
	local end=$(($(date +%s) + $1))
	until grep -Eq "$3" "$2" 2>/dev/null; do
		[ "$(date +%s)" -lt "$end" ] || die "run 3: waited $1 s for /$3/ in $2"
		sleep 0.05
	done
}
run3() {
	local dir="$WORK/run3" ready_ms took
	if ! command -v tmux >/dev/null; then
		echo "run 3: SKIP: tmux is not installed (the lobby is a terminal screen)"
		return
	fi
	mkdir -p "$dir/data.p" "$dir/data.2" "$dir/out.2"
	TMUX_SOCK="okey-lan-test-$ID"
	tm() { ip netns exec "okey-p1-$ID" tmux -u -L "$TMUX_SOCK" "$@"; }
	screen() { tm capture-pane -p -t lobby; }
	# The lobby: okey play on the LAN, in English, at 100x30.
	tm -f /dev/null new-session -d -s lobby -x 100 -y 30 \
		"TERM=xterm-256color LC_ALL=C.UTF-8 LANG= LC_MESSAGES= $OKEY play --name host --data $dir/data.p; echo okey-exited-\$?; sleep 600"
	# wait_screen SECONDS PATTERN: until the lobby's screen matches (grep -E).
	wait_screen() {
		local end=$(($(date +%s) + $1))
		until screen | grep -Eq "$2"; do
			[ "$(date +%s)" -lt "$end" ] || die "run 3: waited $1 s for /$2/ on the lobby's screen"
			sleep 0.05
		done
	}
	wait_screen 20 'c create'
	# c: the create form (classic, 4 players, 3 bots); players 3, bots 1.
	tm send-keys -t lobby c
	wait_screen 10 'open a table'
	tm send-keys -t lobby Down Down Left Down Left
	wait_screen 10 'players +< 3 >'
	wait_screen 10 'bots +< 1 >'
	tm send-keys -t lobby Enter
	wait_file 20 "$dir/data.p/okey.log" 'msg="lobby request".* op=ready'
	echo "run 3: the lobby's table is open with its bot: $(grep -o 'msg="lobby request".* op=ready[^ ]*' "$dir/data.p/okey.log" | head -1 | grep -o 'table=[^ ]*')"
	# The player on another computer: a bot in namespace 2 finds the table by mDNS.
	lab_bot "okey-p2-$ID" remote "$dir/data.2" "$dir/out.2" "$dir/stdout.2" "$dir/log.2" \
		--players 3 --preset classic --withhold 60s --wait 60s --settle 30s \
		--listen /ip4/0.0.0.0/tcp/0 --listen /ip4/0.0.0.0/udp/0/quic-v1
	PIDS+=("$LAB_BOT_PID")
	local end=$(($(date +%s) + 30))
	until [ "$(grep -c 'msg="lobby request".* op=ready' "$dir/data.p/okey.log")" -ge 2 ]; do
		[ "$(date +%s)" -lt "$end" ] || die "run 3: the remote never sat ready at the lobby's table"
		sleep 0.05
	done
	# The player is ready last: r at the selected table.
	tm send-keys -t lobby r
	ready_ms=$(now_ms)
	until grep -q 'msg="table ready"' "$dir/log.2" 2>/dev/null; do
		[ $(($(now_ms) - ready_ms)) -le 2000 ] || die "run 3: the remote's table did not open within 2 s of the last ready"
		sleep 0.02
	done
	took=$(($(now_ms) - ready_ms))
	! grep -q 'opened without every member' "$dir/log.2" || die "run 3: the remote's table opened without every member"
	echo "run 3: the remote's table opened ${took} ms after the last ready, every member joined: $(grep -o 'msg="table ready".*' "$dir/log.2" | head -1)"
	tmux -L "$TMUX_SOCK" kill-server 2>/dev/null || true
	TMUX_SOCK=
}
if [[ $RUNS == *3* ]]; then run3; fi
echo "lan-test: ok"
