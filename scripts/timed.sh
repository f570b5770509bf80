#!/usr/bin/env bash
# timed.sh NAME BUDGET_SECONDS COMMAND...: runs one line of make test, then
# prints how long it took against its budget (a line over its budget is
# reported, not failed: these machines are shared and noisy; the hard limit
# is each line's own -timeout). The figures also go to $TIMES (make test
# prints them all at its end).
set -u
name=$1 budget=$2
shift 2
start=$(date +%s)
"$@"
rc=$?
took=$(( $(date +%s) - start ))
note=""
[ "$took" -gt "$budget" ] && note="  OVER BUDGET"
[ "$rc" -ne 0 ] && note="$note  FAILED (exit $rc)"
line=$(printf '%-14s %4d s (budget %4d s)%s' "$name" "$took" "$budget" "$note")
echo "== $line"
[ -n "${TIMES:-}" ] && echo "$line" >>"$TIMES"
exit $rc
