#!/usr/bin/env bash
# beside.sh LOG CMD1... -- CMD2...: runs CMD1 in the background, its output
# to LOG, and CMD2 in the foreground beside it; when both are done it prints
# LOG and exits 1 if either failed. make test runs its no-race line beside
# the labs: the labs wait on the network and their own timers far more than
# on the cores, so on two cores the two together take about as long as the
# longer one.
set -u
log=$1
shift
first=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
	first+=("$1")
	shift
done
[ $# -gt 0 ] || { echo "usage: beside.sh LOG CMD1... -- CMD2..." >&2; exit 2; }
shift
"${first[@]}" >"$log" 2>&1 &
pid=$!
# a signal stops both
trap 'kill "$pid" 2>/dev/null; exit 130' INT TERM
rc=0
"$@" || rc=1
wait "$pid" || rc=1
echo "--- beside the labs: ${first[*]}"
cat "$log"
exit $rc
