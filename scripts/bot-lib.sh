# shellcheck shell=bash
# bot-lib.sh: how the labs start `okey bot`, sourced by every lab that runs
# bots (lan-test, party, friends-lab, nat-lab-test, nat-lab-matrix).
#
# lab_bot NS NAME DATA OUT STDOUT STDERR [ARGS...]
#   starts `okey bot --name NAME --data DATA --out OUT -v ARGS...` ($OKEY)
#   in network namespace NS, in the background: DATA and OUT are made
#   first; its standard output is appended to the file STDOUT and its
#   standard error (the log, unless ARGS has --log) to STDERR; its standard
#   input is the file $BOT_STDIN (default /dev/null); the array BOT_ENV, if
#   set, holds environment assignments (VAR=value) it runs with. The bot's
#   pid is left in LAB_BOT_PID: the caller records it (its kill list, its
#   BOT_PID table).
lab_bot() {
	local ns=$1 name=$2 data=$3 out=$4 stdout=$5 stderr=$6
	shift 6
	local env=()
	if declare -p BOT_ENV >/dev/null 2>&1; then env=("${BOT_ENV[@]}"); fi
	mkdir -p "$data" "$out"
	ip netns exec "$ns" env "${env[@]}" "$OKEY" bot --name "$name" --data "$data" --out "$out" -v "$@" \
		<"${BOT_STDIN:-/dev/null}" >>"$stdout" 2>>"$stderr" &
	# shellcheck disable=SC2034 # the caller's
	LAB_BOT_PID=$!
}
