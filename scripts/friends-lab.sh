#!/usr/bin/env bash
# friends-lab.sh: friends over the internet as a group sets it up (issue 36's
# "done means"), written apart from the NAT labs (it uses neither
# scripts/natlab-lib.sh nor the natlab helper): its own network namespaces
# (names fl-<pid>-...), veth pairs made inside them (nothing is added to the
# machine's own namespace) and iptables rules.
#
#   internet  a bridge in fl-<pid>-inet, 11.88.0.0/24
#   relay     fl-<pid>-relay, 11.88.0.2: `okey relay` on TCP and QUIC port 4001
#   home A    port-restricted cone NAT (router 11.88.0.11): ayse creates the
#             table, and deniz, on the same LAN, fills a seat
#   home B    port-restricted cone NAT (router 11.88.0.12): mehmet
#   home C    symmetric NAT (router 11.88.0.13, a new port per destination): zeynep
#
# A port-restricted cone router: MASQUERADE, and from the internet only
# packets of connections the home opened (conntrack RELATED,ESTABLISHED);
# symmetric: MASQUERADE --random. No router answers anything unsolicited.
#
# What a group does: the relay's operator starts `okey relay` and sends its
# one "relay line"; ayse starts with --relay LINE and sends the invite code
# she is shown; each friend pastes it as the lobby shows it, wrapped at 76
# columns (each line with the two spaces of the lobby's margin), into
# `okey bot --code -`. Everyone runs okey's defaults: TCP and QUIC on every
# interface, mDNS on. 0.1 s into the second hand (the first leaves the
# hole punches of the first seconds time to finish) the relay is killed for
# OUTAGE seconds, then started again with its data (same key, same line),
# as its operator restarts it. The match must end with every bot's exit
# status 0, identical transcripts that `okey verify` accepts as honest (no
# one named).
#
# Figures, per run and over all runs: each joiner's time from its start to
# its seat and to "table ready" by its home's NAT type (the creator's LAN,
# cone, symmetric),
# the links between the two cone homes at the end (direct or relayed, as
# each bot's last links line says; direct if either end says so), and each
# bot's time from the relay's return to the next move it applied.
#
# usage: sudo scripts/friends-lab.sh      (make friends-lab; not in make test)
# env:   OKEY=path     a prebuilt okey binary (default: go build it)
#        RUNS=1        runs (each with new namespaces, identities and relay)
#        OUTAGE=20     seconds the relay is away
#        RULES=classic  the match's ruleset (several hands: the outage comes
#                       in the second, and play goes on after it)
#        TIMEOUT=300   seconds a run's match may take
#        KEEP=1        keep the work directory (logs, transcripts, figures)
set -euo pipefail

RUNS=${RUNS:-1}
OUTAGE=${OUTAGE:-20}
RULES=${RULES:-classic}
TIMEOUT=${TIMEOUT:-300}
P="fl-$$"
NET=11.88.0
WORK=$(mktemp -d /tmp/okey-friends-lab.XXXXXX)
PIDS=()
# shellcheck source=bot-lib.sh
. "$(dirname "$0")/bot-lib.sh"

say() { echo "friends-lab: $*"; }

# cleanup ends the processes this script started (by their ids, and every
# process inside its own namespaces: the relay restarted mid-run) and
# deletes its namespaces.
cleanup() {
	local p ns nses
	nses=$(ip netns list 2>/dev/null | cut -d' ' -f1 | grep "^$P-" || true)
	for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done
	for ns in $nses; do
		for p in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$p" 2>/dev/null || true; done
	done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
	PIDS=()
	for ns in $nses; do ip netns del "$ns" 2>/dev/null || true; done
}
finish() {
	cleanup
	if [ -n "${KEEP:-}" ]; then say "work directory kept: $WORK"; else rm -rf "$WORK"; fi
}
trap finish EXIT
trap 'exit 130' INT TERM

die() {
	echo "friends-lab: FAIL: $*" >&2
	local f
	for f in "$RUN"/*.log "$RUN"/*.out; do
		[ -f "$f" ] || continue
		echo "--- $f (last 10 lines)" >&2
		tail -10 "$f" >&2
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
RUN=$WORK

# nsx NS CMD...: CMD in namespace NS (not for a process whose id is kept:
# the function is a shell of its own; ip netns exec is the process itself).
nsx() { local ns=$1; shift; ip netns exec "$P-$ns" "$@"; }

# network: the internet, the relay host and the three homes.
network() {
	local ns h i
	for ns in inet relay rA rB rC hA hB hC; do
		ip netns add "$P-$ns"
		ip -n "$P-$ns" link set lo up
	done
	ip -n "$P-inet" link add br0 type bridge
	ip -n "$P-inet" link set br0 up
	# wire NS_A IF_A NS_B IF_B: a veth pair made inside the two namespaces.
	wire() {
		ip -n "$P-$1" link add "$2" type veth peer name "$4" netns "$P-$3"
		ip -n "$P-$1" link set "$2" up
		ip -n "$P-$3" link set "$4" up
	}
	wire inet prelay relay eth0
	ip -n "$P-inet" link set prelay master br0
	ip -n "$P-relay" addr add "$NET.2/24" dev eth0
	i=0
	for h in A B C; do
		i=$((i + 1))
		wire inet "p$h" "r$h" wan0
		ip -n "$P-inet" link set "p$h" master br0
		ip -n "$P-r$h" addr add "$NET.1$i/24" dev wan0
		wire "r$h" lan0 "h$h" eth0
		ip -n "$P-r$h" addr add "10.0.$i.1/24" dev lan0
		ip -n "$P-h$h" addr add "10.0.$i.2/24" dev eth0
		ip -n "$P-h$h" route add default via "10.0.$i.1"
		nsx "r$h" sysctl -qw net.ipv4.ip_forward=1
		local masq=(-j MASQUERADE)
		[ "$h" != C ] || masq=(-j MASQUERADE --random)
		nsx "r$h" iptables -t nat -A POSTROUTING -o wan0 "${masq[@]}"
		nsx "r$h" iptables -A FORWARD -i wan0 -o lan0 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT
		nsx "r$h" iptables -A FORWARD -i wan0 -j DROP
		# nothing leaves for an address outside the lab's internet (counted)
		nsx "r$h" iptables -A FORWARD -o wan0 ! -d "$NET.0/24" -j DROP
		nsx "r$h" iptables -A INPUT -i wan0 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT
		nsx "r$h" iptables -A INPUT -i wan0 -j DROP
	done
}

# leaks: packets the routers dropped for addresses outside the lab.
leaks() {
	local h n=0 c
	for h in A B C; do
		c=$(nsx "r$h" iptables -vnxL FORWARD | awk '$3 == "DROP" && $7 == "wan0" {s += $1} END {print s + 0}')
		n=$((n + c))
	done
	echo "$n"
}

# start_relay: okey relay on fixed ports with its data (a restart keeps its
# identity, key and tables); waits for its line.
start_relay() {
	: >"$RUN/relay.out"
	ip netns exec "$P-relay" "$OKEY" relay --data "$RUN/relay" --listen /ip4/0.0.0.0/tcp/4001 --listen /ip4/0.0.0.0/udp/4001/quic-v1 -v \
		>"$RUN/relay.out" 2>>"$RUN/relay.log" &
	RELAY_PID=$!
	PIDS+=("$RELAY_PID")
	disown "$RELAY_PID" # killed on purpose: no "Killed" from the shell
	local deadline=$(($(date +%s) + 20))
	until grep -q '^relay line: ' "$RUN/relay.out" 2>/dev/null; do
		[ "$(date +%s)" -lt "$deadline" ] || die "okey relay printed no relay line"
		sleep 0.05
	done
}

now_ms() { date +%s%3N; }
# log_ms LINE: the time of a log line (time=...), in milliseconds.
log_ms() {
	local t=${1#time=}
	date -d "${t%% *}" +%s%3N
}

declare -A HOME_OF NAT_OF BOT_PID START
HOME_OF=([ayse]=A [deniz]=A [mehmet]=B [zeynep]=C)
NAT_OF=([deniz]=lan [mehmet]=cone [zeynep]=symmetric)

# bot NAME ARGS...: a bot in its home with okey's defaults (no --listen).
bot() {
	local name=$1
	shift
	START[$name]=$(now_ms)
	BOT_STDIN=$STDIN lab_bot "$P-h${HOME_OF[$name]}" "$name" "$RUN/data.$name" "$RUN/out.$name" "$RUN/$name.out" "$RUN/$name.log" \
		--withhold "$((OUTAGE + 60))s" --wait "${TIMEOUT}s" --log "$RUN/$name.log" "$@"
	BOT_PID[$name]=$LAB_BOT_PID
	PIDS+=("$LAB_BOT_PID")
}

FIG="$WORK/figures.txt"
: >"$FIG"

run() {
	local r=$1 name t deadline
	RUN="$WORK/run$r"
	mkdir -p "$RUN"
	network
	start_relay
	local line
	line=$(grep -m1 '^relay line: ' "$RUN/relay.out" | cut -d' ' -f3)
	say "run $r: relay line (${#line} characters): ${line%%/okey-key/*}/okey-key/..."

	STDIN="" bot ayse --create --players 4 --preset "$RULES" --relay "$line"
	deadline=$(($(date +%s) + 30))
	until grep -q '^invite: ' "$RUN/ayse.out" 2>/dev/null; do
		[ "$(date +%s)" -lt "$deadline" ] || die "ayse printed no invite code"
		sleep 0.1
	done
	local code
	code=$(grep -m1 '^invite: ' "$RUN/ayse.out" | cut -d' ' -f2)
	# As the lobby shows it at 80 columns: 76 characters a line, indented.
	fold -w 76 <<<"$code" | sed 's/^/  /' >"$RUN/code.txt"
	say "run $r: invite code of ${#code} characters, pasted on $(wc -l <"$RUN/code.txt") lines"
	for name in deniz mehmet zeynep; do
		STDIN="$RUN/code.txt" bot "$name" --code -
	done

	# The relay goes away 0.1 s into the second hand (a hand takes a second
	# or two here), for OUTAGE seconds.
	(
		until grep -q 'msg="hand started".* hand=1' "$RUN/ayse.log" 2>/dev/null; do sleep 0.02; done
		sleep 0.1
		now_ms >"$RUN/outage.start"
		kill -9 "$RELAY_PID"
		sleep "$OUTAGE"
		start_relay
		now_ms >"$RUN/outage.back"
		grep -m1 '^relay line: ' "$RUN/relay.out" | cut -d' ' -f3 >"$RUN/line.after"
		while kill -0 "$RELAY_PID" 2>/dev/null; do sleep 1; done
	) &
	local outage_pid=$!
	PIDS+=("$outage_pid")
	disown "$outage_pid"

	deadline=$(($(date +%s) + TIMEOUT + 30))
	for name in ayse deniz mehmet zeynep; do
		while kill -0 "${BOT_PID[$name]}" 2>/dev/null; do
			[ "$(date +%s)" -lt "$deadline" ] || die "run $r: $name still running after ${TIMEOUT}s"
			sleep 0.2
		done
		t=0
		wait "${BOT_PID[$name]}" || t=$?
		[ "$t" -eq 0 ] || die "run $r: $name exited $t: $(cat "$RUN/$name.out")"
	done
	[ -f "$RUN/outage.back" ] || die "run $r: the match ended before the relay came back"
	[ "$(cat "$RUN/line.after")" = "$line" ] || die "run $r: the restarted relay prints another line"

	# Identical transcripts, verified honest: no one named.
	local first="" f v
	for name in ayse deniz mehmet zeynep; do
		grep -q '; verified; transcript ' "$RUN/$name.out" || die "run $r: $name printed no verified summary"
		f=$(ls "$RUN/out.$name"/*.okey | head -1)
		v=$("$OKEY" verify "$f") || die "run $r: okey verify rejects $name's transcript"
		case "$v" in *": honest: "* | "honest: "*) ;; *) die "run $r: $name's transcript is not honest: $v" ;; esac
		if [ -z "$first" ]; then first=$f; else cmp -s "$first" "$f" || die "run $r: the transcripts of ayse and $name differ"; fi
	done
	say "run $r: 4 transcripts identical, verified, no one named: $(cut -d: -f2- <<<"$v")"

	# Join times by NAT type: to the seat, and to the whole table ready.
	for name in deniz mehmet zeynep; do
		t=$(grep -m1 'msg="joined table by invite code"' "$RUN/$name.log") || die "run $r: $name never logged its seat"
		echo "join ${NAT_OF[$name]} $(($(log_ms "$t") - START[$name]))" >>"$FIG"
		t=$(grep -m1 'msg="table ready"' "$RUN/$name.log") || die "run $r: $name never logged table ready"
		echo "ready ${NAT_OF[$name]} $(($(log_ms "$t") - START[$name]))" >>"$FIG"
	done
	say "run $r: seated after (ms): $(grep '^join ' "$FIG" | tail -3 | cut -d' ' -f2- | tr '\n' ' ')"
	# The links between the cone homes (A and B), as each end saw them last.
	declare -A ID
	for name in ayse deniz mehmet zeynep; do
		ID[$name]=$(grep -m1 'msg="bot started"' "$RUN/$name.log" | grep -o 'peer=[^ ]*' | cut -d= -f2 | tail -c 7)
	done
	local a b la lb how
	for a in ayse deniz; do
		b=mehmet
		la=$(grep 'msg=links' "$RUN/$a.log" | tail -1)
		lb=$(grep 'msg=links' "$RUN/$b.log" | tail -1)
		how=relayed
		if grep -q "${ID[$b]}=direct" <<<"$la" || grep -q "${ID[$a]}=direct" <<<"$lb"; then how=direct; fi
		echo "cone $a-$b $how" >>"$FIG"
		say "run $r: cone pair $a-$b: $how"
	done
	for name in ayse deniz mehmet zeynep; do
		say "run $r: $name: $(grep 'msg=links' "$RUN/$name.log" | tail -1 | grep -o 'members=.*' || echo 'no links line')"
	done
	# From the relay's return to each bot's next applied move.
	local back ms
	back=$(cat "$RUN/outage.back")
	for name in ayse deniz mehmet zeynep; do
		t=""
		while read -r l; do
			ms=$(log_ms "$l")
			if [ "$ms" -ge "$back" ]; then t=$ms; break; fi
		done < <(grep 'msg=step ' "$RUN/$name.log")
		[ -n "$t" ] || die "run $r: $name applied no move after the relay came back"
		echo "return $name $((t - back))" >>"$FIG"
	done
	say "run $r: relay away $((($(cat "$RUN/outage.back") - $(cat "$RUN/outage.start")) / 1000)) s; next move after its return (ms): $(grep '^return ' "$FIG" | tail -4 | cut -d' ' -f2- | tr '\n' ' ')"
	local leaked
	leaked=$(leaks)
	[ "$leaked" -eq 0 ] || die "run $r: $leaked packets for addresses outside the lab"
	cleanup
	[ -z "$(ip netns list | grep "^$P-" || true)" ] || die "namespaces left after run $r"
	[ -n "${KEEP:-}" ] || rm -rf "$RUN/data."* "$RUN/relay"
}

# pct P: the P-th percentile (nearest rank) of the numbers on stdin.
pct() { sort -n | awk -v p="$1" '{v[NR] = $1} END {if (NR == 0) {print "-"; exit} i = int(p * NR / 100 + 0.999999); if (i < 1) i = 1; print v[i]}'; }
ms2s() { awk '{if ($1 == "-") print "-"; else printf "%.1f s", $1 / 1000}'; }

t0=$(date +%s)
for r in $(seq 1 "$RUNS"); do run "$r"; done

say "over $RUNS run(s) ($(($(date +%s) - t0)) s):"
for nat in lan cone symmetric; do
	n=$(grep -c "^join $nat " "$FIG" || true)
	say "  $nat home, start to seat: p50 $(grep "^join $nat " "$FIG" | cut -d' ' -f3 | pct 50 | ms2s), p95 $(grep "^join $nat " "$FIG" | cut -d' ' -f3 | pct 95 | ms2s); to table ready: p50 $(grep "^ready $nat " "$FIG" | cut -d' ' -f3 | pct 50 | ms2s), p95 $(grep "^ready $nat " "$FIG" | cut -d' ' -f3 | pct 95 | ms2s) ($n joins)"
done
say "  cone-cone pairs direct: $(grep -c '^cone .* direct$' "$FIG" || true) of $(grep -c '^cone ' "$FIG")"
say "  relay's return to the next move: p50 $(grep '^return ' "$FIG" | cut -d' ' -f3 | pct 50 | ms2s), max $(grep '^return ' "$FIG" | cut -d' ' -f3 | pct 100 | ms2s) ($(grep -c '^return ' "$FIG") bots)"
say "ok"
