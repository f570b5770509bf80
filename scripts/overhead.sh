#!/usr/bin/env bash
# overhead.sh: how much of a 4-player hand's CPU time is protocol beyond its
# cryptography. Runs table's BenchmarkHand/players=4 (greedy bots) under the
# CPU profiler and splits the samples by stack: mental-poker cryptography
# (okey/crypto, edwards25519, ristretto255), Ed25519 envelope signatures, the
# bots' thinking, and everything else (the table protocol, engine, encoding,
# hashing, the in-memory transport, the runtime and its GC).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -run '^$' -bench 'Hand/players=4' -benchtime="${BENCHTIME:-5x}" \
	-cpuprofile "$tmp/cpu.prof" -o "$tmp/table.test" ./table | grep '^Benchmark'
crypto='okey/crypto|filippo.io/edwards25519|ristretto255'
sigs='crypto/ed25519|fips140/ed25519'
bots='okey/bot'
pct() { # pct -focus=RE | -ignore=RE: percent of all samples
	go tool pprof -top -nodecount=1000000 "$1" "$tmp/table.test" "$tmp/cpu.prof" 2>/dev/null |
		sed -n 's/^Showing nodes accounting for .*, \([0-9.]*\)% of .* total$/\1/p'
}
printf 'mental-poker crypto %s%%, signatures %s%%, bots %s%%, protocol and everything else %s%%\n' \
	"$(pct -focus="$crypto")" "$(pct -focus="$sigs")" "$(pct -focus="$bots")" "$(pct -ignore="$crypto|$sigs|$bots")"
