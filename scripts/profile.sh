#!/usr/bin/env bash
# Profiles the server under one benchmark scenario: builds release, starts snapshare-server on a
# temporary folder, runs snapshare-bench, records the server with `perf record` (cpu-clock, so it
# works where hardware counters are not exposed) for five seconds in the middle of the run, and
# prints where the server's CPU per operation goes (scripts/lib/cpu-breakdown.py). perf comes
# from Debian's linux-perf, installed if missing.
#
# Usage: scripts/profile.sh SCENARIO [snapshare-bench flags...]
#   e.g. scripts/profile.sh photo --depth 4
# Env:   BENCH_SCRATCH=DIR  build folder (default .build/bench); PROFILE_KEEP=1 keeps perf.data.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRIPT=profile
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"
SCRATCH=${BENCH_SCRATCH:-$ROOT/.build/bench}
[[ $# -ge 1 ]] || { sed -n '2,10p' "$0" >&2; exit 2; }
SCENARIO=$1; shift
install_missing perf:linux-perf
build snapshare-server snapshare-bench

WORK=$(mktemp -d "${TMPDIR:-/tmp}/snapshare-profile.XXXXXX")
SERVER_PID=
cleanup() {
    [[ -n "$SERVER_PID" ]] && kill "$SERVER_PID" 2>/dev/null
    wait 2>/dev/null || true
    if [[ -n "${PROFILE_KEEP:-}" ]]; then echo "profile: kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

"$BIN/snapshare-bench" --write-photos "$WORK/photos"
"$BIN/snapshare-server" --listen 127.0.0.1:0 --data "$WORK/data" --certs "$WORK/certs" --log-level warning \
    --photos "dir:$WORK/photos" "${NO_QUOTAS[@]}" >"$WORK/stdout" 2>"$WORK/stderr" &
SERVER_PID=$!
PORT=$(listening_port "$WORK/stdout" "$WORK/stderr" "$SERVER_PID")

# The bench prepares users and data first; recording starts once the measured window has begun.
(sleep 6; perf record -F 2000 -e cpu-clock -g -p "$SERVER_PID" -o "$WORK/perf.data" -- sleep 5 \
    >/dev/null 2>&1) </dev/null &
RECORDER=$!
"$BIN/snapshare-bench" --server "127.0.0.1:$PORT" --ca "$WORK/certs/ca.pem" --pid "$SERVER_PID" --json \
    --scenario "$SCENARIO" --users 50 --connections 50 --duration 10 --warmup 1 "$@" >"$WORK/result.json"
wait "$RECORDER"
PER_OP=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["server_cpu_us_per_op"])' "$WORK/result.json")
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%s: %.0f ops/s, server %.1f µs/op, client %.1f µs/op, p99 %.2f ms" % (d["scenario"], d["ops_per_sec"], d["server_cpu_us_per_op"], d["client_cpu_us_per_op"], d["p99_ms"]))' "$WORK/result.json"
perf script -i "$WORK/perf.data" -F tid,ip,sym,dso 2>/dev/null | python3 "$ROOT/scripts/lib/cpu-breakdown.py" "$PER_OP"
