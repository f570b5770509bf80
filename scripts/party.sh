#!/usr/bin/env bash
# party.sh: a LAN party under load (issue 26): TABLES tables of 4 okey bots
# in one lobby on one simulated LAN with faults on every link, one bot of
# each table killed with SIGKILL at a random moment mid-match and restarted
# with the same data directory.
#
# As root, it makes a bridge in one namespace and one namespace per bot.
# Each bot's link to the bridge is a TAP pair forwarded by `natlab impair
# -tap` (the NAT lab's userspace impairment tool, scripts/natlab: this kernel
# has no netem): 10 ms delay with 5 ms jitter and 0.5% duplication each way;
# and iptables' statistic match drops 2% of the packets that reach each bot's
# namespace (so a packet between two bots takes 20 ms +-10 ms and is lost
# with probability 2%). An echo server on the bridge (not impaired) checks,
# before the run counts, that every bot's link shows the delay, the loss and
# the duplicates within bounds (`natlab rtt`, the NAT lab's check).
#
# The first bot of each table opens a LAN table (okey bot --create --lan),
# all tables at once; the other three join it by id (--join) once it is
# announced; the lobby, joins and matches run over mDNS and gossip inside the
# namespaces only. Pass: every match finishes; every seat's transcript of
# a table is byte-identical and `okey verify` says honest; each killed bot
# resumed its match (not a fresh start). It prints a table per table (hands,
# wall time, time per hand, the slowest move's propagation, bytes per seat
# per hand) and totals (CPU per hand per seat in ms and in unit scalar
# multiplications measured during the run, lobby announcements per second,
# peak RSS), from the bots' --summary files.
#
# SPECTATORS (issue 26, enabled when `okey watch -h` succeeds; skipped with a
# notice otherwise): SPECTATORS=N starts N `okey watch --no-ui TABLE` with
# their own data directories, spread over the tables, kills one with SIGKILL
# and restarts it; their transcripts must be the seats'.
#
# usage: sudo scripts/party.sh            (make party: 6 tables)
#        sudo TABLES=2 scripts/party.sh   (the small party of make e2e)
# env:   OKEY=path NATLAB=path   prebuilt binaries (default: go build them)
#        TABLES=6                tables
#        SEATS=4                 bots per table (2-4: the per-seat cost's growth)
#        RULES=classic:points=4   the ruleset (a few hands)
#        TIMEOUT=900             seconds the matches may take in all
#        SPECTATORS=8            spectators (see above; make e2e runs 2)
#        KEEP=1                  keep the work directory
#        DECK_TEST=path          a prebuilt crypto/deck test binary (the unit)
set -euo pipefail

TABLES=${TABLES:-6}
SEATS=${SEATS:-4}
N=$((TABLES * SEATS))
RULES=${RULES:-classic:points=4}
TIMEOUT=${TIMEOUT:-900}
SPECTATORS=${SPECTATORS:-8}
IMPAIR="delay=10ms jitter=5ms dup=0.5%"
LOSS=0.02
ID=$$
BR_NS="okey-pbr-$ID"
ECHO_NS="okey-pe-$ID"
ECHO=10.78.0.250
WORK=$(mktemp -d /tmp/okey-party.XXXXXX)
# shellcheck disable=SC2034 # read through NL_NS_VAR/NL_PID_VAR (natlab-lib.sh's namerefs)
NSES=()
PIDS=()
# shellcheck source=netns-lan.sh
. "$(dirname "$0")/netns-lan.sh"
# shellcheck source=bot-lib.sh
. "$(dirname "$0")/bot-lib.sh"

cleanup() {
	lan_teardown
	if [ -n "${KEEP:-}" ]; then echo "party: work directory kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

die() {
	echo "party: FAIL: $*" >&2
	local f
	for f in "$WORK"/log.*; do
		[ -f "$f" ] || continue
		echo "--- $f (last 5 lines)" >&2
		tail -5 "$f" >&2
	done
	exit 1
}
say() { echo "party: $*"; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

[ "$(id -u)" -eq 0 ] || die "must run as root (network namespaces)"
command -v ip >/dev/null || die "the ip command (iproute2) is missing"
command -v iptables >/dev/null || die "iptables is missing (the loss)"
[ -c /dev/net/tun ] || die "/dev/net/tun is missing (natlab impair needs TAP)"
[ "$TABLES" -ge 1 ] || die "TABLES must be at least 1"
[ "$SEATS" -ge 2 ] && [ "$SEATS" -le 4 ] || die "SEATS must be 2, 3 or 4"

cd "$(dirname "$0")/.."
if [ -z "${OKEY:-}" ]; then
	OKEY="$WORK/okey"
	go build -o "$OKEY" ./cmd/okey
fi
if [ -z "${NATLAB:-}" ]; then
	NATLAB="$WORK/natlab"
	go build -o "$NATLAB" ./scripts/natlab
fi
if [ -z "${DECK_TEST:-}" ]; then
	DECK_TEST="$WORK/deck.test"
	go test -c -o "$DECK_TEST" ./crypto/deck
fi
START_MS=$(now_ms)

# --- the LAN: a bridge, an echo server, one impaired namespace per peer ---
# (scripts/netns-lan.sh)
lan_bridge
okpe="okpe$ID"
lan_host "$ECHO_NS" "$ECHO/24" "${okpe:0:15}"
ip -n "$ECHO_NS" addr add 10.78.0.251/24 dev eth0
ip netns exec "$ECHO_NS" "$NATLAB" probe-server -a "$ECHO" -b 10.78.0.251 -port 3478 >"$WORK/echo.out" 2>&1 &
PIDS+=("$!")

# peer_ns I: namespace I (10.78.0.I on the bridge, I <= 240) behind natlab
# impair -tap, with 2% of its incoming packets dropped.
echo "$IMPAIR" >"$WORK/impair"
peer_ns() {
	local i=$1 ns="okey-pp$1-$ID" deadline
	nl_ns "$ns"
	"$NATLAB" impair -tap -a "$ns" -a-if eth0 -b "$BR_NS" -b-if "tp$i" -config "$WORK/impair" >"$WORK/impair.$i.out" 2>&1 &
	PIDS+=("$!")
	deadline=$(($(date +%s) + 10))
	until grep -q 'ready' "$WORK/impair.$i.out" 2>/dev/null; do
		[ "$(date +%s)" -lt "$deadline" ] || die "natlab impair for peer $i did not start: $(cat "$WORK/impair.$i.out")"
		sleep 0.05
	done
	ip -n "$BR_NS" link set "tp$i" master br0
	ip -n "$BR_NS" link set "tp$i" up
	ip -n "$ns" addr add "10.78.0.$i/24" dev eth0
	ip -n "$ns" link set eth0 up
	ip netns exec "$ns" iptables -A INPUT -i eth0 -m statistic --mode random --probability "$LOSS" -j DROP
}

# check_link I: the delay, loss and duplicates from peer I to the echo
# server are what the faults should give, within bounds (as the NAT lab's
# check_impairment does); else the run does not count.
check_link() {
	local i=$1 out
	out=$(ip netns exec "okey-pp$i-$ID" "$NATLAB" rtt -to "$ECHO:3478" -n 400 -every 5ms)
	echo "peer $i: $out" >>"$WORK/links.txt"
	awk -v res="$out" -v loss="$LOSS" '
	function dur(s) { if (s ~ /ms$/) return substr(s, 1, length(s)-2)+0; if (s ~ /µs$/) return (substr(s, 1, length(s)-2)+0)/1000;
		if (s ~ /s$/) return (substr(s, 1, length(s)-1)+0)*1000; return s+0 }
	BEGIN {
		n = split(res, f, " "); for (k = 1; k <= n; k++) { split(f[k], kv, "=");
			if (kv[1] == "sent") sent = kv[2]; if (kv[1] == "got") got = kv[2]; if (kv[1] == "dup") dups = kv[2];
			if (kv[1] == "rtt_p50") p50 = dur(kv[2]) }
		# One impaired link each way: 2 x 10 ms, jitter 5 ms each way.
		if (p50 < 20 - 1 - 5 || p50 > 20 + 5 + 2 + 5) { printf "rtt p50 %.1f ms, want 20 ms\n", p50; exit 1 }
		# The reply is dropped at the peer with probability loss (the
		# request leaves unharmed; the echo server is not impaired).
		e = loss; m = (sent - got) / sent; sd = sqrt(e * (1 - e) / sent)
		if (m > e + 4 * sd + 0.005 || m < e - 4 * sd - 0.005 || m == 0) { printf "loss %.2f%%, want %.2f%%\n", 100*m, 100*e; exit 1 }
		# Duplicated on the way out or back: about 1%.
		ed = 1 - 0.995 * 0.995; md = dups / sent; sd = sqrt(ed * (1 - ed) / sent)
		if (md > ed + 4 * sd + 0.005 || md < ed - 4 * sd - 0.005) { printf "duplicates %.2f%%, want about %.2f%%\n", 100*md, 100*ed; exit 1 }
	}' >"$WORK/link-check.$i" || { [ -n "${LINK_RETRY[$i]:-}" ] || { LINK_RETRY[$i]=1; return 1; }
		die "peer $i's faults did not take effect ($IMPAIR, loss $LOSS), twice: $(cat "$WORK/link-check.$i"); measured: $out"; }
}
declare -A LINK_RETRY

declare -A BOT_PID KILLED_AT
SPEC_N=0
if "$OKEY" watch -h >/dev/null 2>&1; then SPEC_N=$SPECTATORS; elif [ "$SPECTATORS" -gt 0 ]; then
	say "SPECTATORS=$SPECTATORS: SKIPPED: this okey has no watch command (okey watch -h fails)"
fi
for i in $(seq 1 $((N + SPEC_N))); do peer_ns "$i"; done
# One peer at a time (at once they would measure the machine's load); a
# check that fails is made once more (a moment's load on a shared machine
# delays the userspace forwarder), and the run stops if it fails again.
for i in $(seq 1 $((N + SPEC_N))); do check_link "$i" 2>/dev/null || check_link "$i"; done
say "$((N + SPEC_N)) peers on one bridge; every link's faults took effect (each: natlab rtt, 400 echoes):"
awk '{ for (k = 1; k <= NF; k++) { split($k, kv, "="); if (kv[1] == "sent") s += kv[2]; if (kv[1] == "got") g += kv[2]; if (kv[1] == "dup") d += kv[2]; if (kv[1] == "rtt_p50") { p = kv[2]; sub(/ms$/, "", p); ps = ps " " p } } }
	END { printf "  loss %.2f%% (want 2%%), duplicates %.2f%% (want ~1%%), rtt p50 per peer (ms, want 20):%s\n", 100*(s-g)/s, 100*d/s, ps }' "$WORK/links.txt"

# --- the bots ---
# start_bot I ARGS...: bot I (table (I-1)/4+1) in its namespace, in the
# background, with ARGS (how it takes its seat; none when it resumes). The
# party measures the network, not a person's pace: its bots never wait, also
# while their table is watched (--pace 0s; without it a watched bot waits
# 1.5 s a move, and the spectators' tables took three times as long).
start_bot() {
	local i=$1
	shift
	lab_bot "okey-pp$i-$ID" "bot$i" "$WORK/data.$i" "$WORK/out.$i" "$WORK/stdout.$i" "$WORK/log.$i" \
		--players "$SEATS" --preset "$RULES" --withhold 120s --wait 120s --pace 0s "$@" \
		--listen /ip4/0.0.0.0/tcp/0 --listen /ip4/0.0.0.0/udp/0/quic-v1 \
		--summary "$WORK/summary.$i.$(date +%s%N).json"
	BOT_PID[$i]=$LAB_BOT_PID
	PIDS+=("$LAB_BOT_PID")
}
steps() { grep -c 'msg=step ' "$WORK/log.$1" 2>/dev/null || true; }

# The first bot of each table opens it (a LAN table), at once for all
# tables; the other three join it by id once it is announced.
for tb in $(seq 1 "$TABLES"); do start_bot $(((tb - 1) * SEATS + 1)) --create --lan; done
deadline=$(($(date +%s) + 60))
for tb in $(seq 1 "$TABLES"); do
	c=$(((tb - 1) * SEATS + 1))
	until grep -q 'msg="created table"' "$WORK/log.$c" 2>/dev/null; do
		[ "$(date +%s)" -lt "$deadline" ] || die "table $tb: bot $c opened no table within 60 s"
		kill -0 "${BOT_PID[$c]}" 2>/dev/null || die "table $tb: bot $c exited: $(cat "$WORK/stdout.$c") $(grep -v '^time=' "$WORK/log.$c" | tail -3)"
		sleep 0.05
	done
	TABLE_ID[tb]=$(grep -o 'msg="created table" table=[^ ]*' "$WORK/log.$c" | head -1 | sed 's/.*table=//')
done
for tb in $(seq 1 "$TABLES"); do
	for i in $(seq $(((tb - 1) * SEATS + 2)) $((tb * SEATS))); do start_bot "$i" --join "${TABLE_ID[$tb]}"; done
done

# --- SPECTATORS (enabled once okey watch exists), from the tables' start ---
if [ "$SPEC_N" -gt 0 ]; then
	start_spec() {
		local j=$1 i=$((N + $1)) tb=$(((($1 - 1) % TABLES) + 1))
		mkdir -p "$WORK/sdata.$j"
		ip netns exec "okey-pp$i-$ID" "$OKEY" watch --no-ui --data "$WORK/sdata.$j" \
			--listen /ip4/0.0.0.0/tcp/0 --listen /ip4/0.0.0.0/udp/0/quic-v1 "${TABLE_ID[$tb]}" \
			>>"$WORK/sstdout.$j" 2>>"$WORK/slog.$j" &
		SPEC_PID[$j]=$!
		PIDS+=("$!")
	}
	declare -A SPEC_PID
	for j in $(seq 1 "$SPEC_N"); do start_spec "$j"; done
	# Spectator 1 is killed once its table has played 20 steps (it watches
	# by then), and restarted at once with the same data directory: it
	# must resume while the match goes on.
	sdeadline=$(($(date +%s) + 120))
	until [ "$(steps 1)" -ge 20 ]; do
		[ "$(date +%s)" -lt "$sdeadline" ] || die "table 1 played no 20 steps within 120 s"
		sleep 0.05
	done
	kill -9 "${SPEC_PID[1]}" 2>/dev/null || true
	wait "${SPEC_PID[1]}" 2>/dev/null || true
	say "spectator 1 killed with SIGKILL; restarted"
	start_spec 1
fi


# The unit: the CPU time of one ristretto255 scalar multiplication
# (crypto/deck's BenchmarkScalarMult, 20,000 of them, CPU time as the bots'
# is: the benchmark's own ns/op is wall time, inflated by the bots' load),
# measured while the matches run.
( TIMEFORMAT='%U %S'; { time "$DECK_TEST" -test.run '^$' -test.bench '^BenchmarkScalarMult$' -test.benchtime 20000x >"$WORK/unit.out" 2>&1; } 2>"$WORK/unit.cpu" ) &
UNIT_PID=$!
PIDS+=("$UNIT_PID")

# --- one SIGKILL per table, at a random step, then a restart ---
# The victim is a random seat; it dies after a random number of steps
# (30 to 30+KILL_SPAN-1: past the deal, before a match of one hand ends),
# and is started again at once with the same data directory. One loop
# watches every table.
KILL_SPAN=${KILL_SPAN:-100}
declare -A VICTIM AT DONE_KILL
for tb in $(seq 1 "$TABLES"); do
	VICTIM[$tb]=$(((tb - 1) * SEATS + 1 + RANDOM % SEATS))
	AT[$tb]=$((30 + RANDOM % KILL_SPAN))
done
deadline=$(($(date +%s) + 300))
while :; do
	left=0
	for tb in $(seq 1 "$TABLES"); do
		[ -z "${DONE_KILL[$tb]:-}" ] || continue
		v=${VICTIM[$tb]}
		if [ "$(steps "$v")" -ge "${AT[$tb]}" ]; then
			kill -9 "${BOT_PID[$v]}" 2>/dev/null || die "table $tb: bot $v ended before step ${AT[$tb]}"
			wait "${BOT_PID[$v]}" 2>/dev/null || true
			KILLED_AT[$tb]=$(steps "$v")
			say "table $tb (${TABLE_ID[$tb]}): bot $v killed with SIGKILL after ${KILLED_AT[$tb]} steps; restarted"
			echo "--- restarted ---" >>"$WORK/log.$v"
			start_bot "$v"
			DONE_KILL[$tb]=1
			continue
		fi
		kill -0 "${BOT_PID[$v]}" 2>/dev/null || die "table $tb: bot $v ended before step ${AT[$tb]}: $(cat "$WORK/stdout.$v")"
		left=$((left + 1))
	done
	[ "$left" -gt 0 ] || break
	[ "$(date +%s)" -lt "$deadline" ] || die "a victim never reached its step"
	sleep 0.05
done
wait "$UNIT_PID" || true
grep -q '^BenchmarkScalarMult' "$WORK/unit.out" || die "the scalar multiplication benchmark failed: $(cat "$WORK/unit.out")"
UNIT_NS=$(awk '{ printf "%.0f", ($1 + $2) * 1e9 / 20001 }' "$WORK/unit.cpu")

# --- the end: every match finishes, identical verified transcripts ---
deadline=$(($(date +%s) + TIMEOUT))
for i in $(seq 1 "$N"); do
	while kill -0 "${BOT_PID[$i]}" 2>/dev/null; do
		[ "$(date +%s)" -lt "$deadline" ] || die "bot $i still running after ${TIMEOUT}s"
		sleep 0.5
	done
	code=0
	wait "${BOT_PID[$i]}" || code=$?
	[ "$code" -eq 0 ] || die "bot $i exited $code: $(cat "$WORK/stdout.$i")"
done
END_MS=$(now_ms)
for tb in $(seq 1 "$TABLES"); do
	first=$(((tb - 1) * SEATS + 1)) ref=""
	for i in $(seq "$first" $((first + SEATS - 1))); do
		f="$WORK/out.$i/${TABLE_ID[$tb]}.okey"
		[ -f "$f" ] || die "table $tb: bot $i saved no transcript"
		if [ -z "$ref" ]; then ref=$f; else cmp -s "$ref" "$f" || die "table $tb: the transcripts of bot $first and bot $i differ"; fi
	done
	"$OKEY" verify "$ref" >"$WORK/verify.$tb" || die "table $tb: okey verify: $(cat "$WORK/verify.$tb")"
	grep -q honest "$WORK/verify.$tb" || die "table $tb: okey verify does not say honest: $(cat "$WORK/verify.$tb")"
	v=${VICTIM[$tb]}
	grep -q 'resumed at message' "$WORK/stdout.$v" || die "table $tb: bot $v did not resume its match: $(cat "$WORK/stdout.$v")"
done
if [ "$SPEC_N" -gt 0 ]; then
	for j in $(seq 1 "$SPEC_N"); do
		code=0
		wait "${SPEC_PID[$j]}" || code=$?
		[ "$code" -eq 0 ] || die "spectator $j exited $code: $(tail -3 "$WORK/slog.$j")"
		tb=$((((j - 1) % TABLES) + 1))
		f=$(find "$WORK/sdata.$j" -name "${TABLE_ID[$tb]}.okey" | head -1)
		[ -n "$f" ] || die "spectator $j saved no transcript of table ${TABLE_ID[$tb]}"
		cmp -s "$f" "$WORK/out.$(((tb - 1) * SEATS + 1))/${TABLE_ID[$tb]}.okey" || die "spectator $j's transcript differs from the seats'"
	done
	say "$SPEC_N spectators: transcripts identical to the seats'"
fi

# --- the report, from the bots' --summary files ---
say "$TABLES tables of $SEATS bots ($RULES), faults: $IMPAIR each way on each bot's link, loss $LOSS into each bot; one SIGKILL per table"
for tb in $(seq 1 "$TABLES"); do
	first=$(((tb - 1) * SEATS + 1))
	files=()
	for i in $(seq "$first" $((first + SEATS - 1))); do files+=("$WORK"/summary."$i".*.json); done
	echo "${TABLE_ID[$tb]} ${VICTIM[$tb]} ${KILLED_AT[$tb]} ${files[*]}"
done >"$WORK/tables.txt"
python3 - "$WORK/tables.txt" "$UNIT_NS" "$START_MS" "$END_MS" "$N" <<'EOF'
import json, sys
tables, unit_ns, start_ms, end_ms, n = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
rows, cpu_hand, rss, acc_rate = [], [], [], []
print("table             hands  wall s  s/hand  slowest move ms  bytes sent/seat/hand  killed (seat@step)")
for line in open(tables):
    f = line.split()
    tid, victim, killed_at, files = f[0], int(f[1]), f[2], f[3:]
    sums = [json.load(open(p)) for p in files]
    whole = []  # summaries of processes that played the whole match (not killed, not restarted)
    applied = {}
    for p, s in zip(files, sums):
        seat_bot = int(p.split("summary.")[1].split(".")[0])
        m = [x for x in s["matches"] if x["table"] == tid]
        if not m:
            continue
        m = m[0]
        rss.append(s["peak_rss_bytes"])
        if s["wall_ms"] > 0:
            acc_rate.append(s["lobby_accepted"] * 1000.0 / s["wall_ms"])
        if seat_bot == victim:
            continue
        whole.append((s, m))
        for st, us in m["applied"]:
            applied.setdefault(st, []).append(us)
    hands = whole[0][1]["hands"]
    wall = max(m["elapsed_ms"] for _, m in whole) / 1000
    # The slowest move: the largest spread of a step's apply times across
    # the seats never killed (they share the machine's clock); one such
    # seat (2-seat tables) has no spread to measure.
    spread = "%15.1f" % (max((max(v) - min(v)) for v in applied.values() if len(v) == len(whole)) / 1000) if len(whole) > 1 else "%15s" % "n/a" 
    sent = sum(s["bytes_sent"] for s, _ in whole) / len(whole) / hands
    for s, m in whole:
        cpu_hand.append((s["cpu_user_ms"] + s["cpu_system_ms"]) / hands)
    print("%-17s %5d  %6.1f  %6.1f  %s  %20.0f  seat bot%d@%s" % (tid, hands, wall, wall / hands, spread, sent, victim, killed_at))
cpu = sum(cpu_hand) / len(cpu_hand)
print("totals: %d bots; CPU per hand per seat %.0f ms = %.0f unit scalar multiplications (unit %.1f us, measured during the run); lobby announcements taken per second per bot %.1f (mean); peak RSS max %.1f MB, mean %.1f MB; party wall time %.0f s"
      % (n, cpu, cpu * 1e6 / unit_ns, unit_ns / 1000, sum(acc_rate) / len(acc_rate), max(rss) / 1e6, sum(rss) / len(rss) / 1e6, (end_ms - start_ms) / 1000))
EOF
say "ok: $TABLES matches finished; every seat's transcript of a table identical and verified honest; every killed bot resumed"
