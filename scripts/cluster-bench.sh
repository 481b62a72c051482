#!/usr/bin/env bash
# The bench against several instances on PostgreSQL (issue 13): starts scripts/cluster.sh
# (release build, a throwaway PostgreSQL with its defaults, synchronous_commit=on, N instances,
# HAProxy on one address), runs snapshare-bench's post, view, poll and photo scenarios through
# that address, then bare PostgreSQL inserting 100 KB rows with pgbench as the reference for
# posts, and takes the CPU of every instance and of every PostgreSQL process from /proc
# over each measured run (snapshare-bench --pid … --database-pid …). Prints a Markdown table;
# docs/benchmarks.md keeps the latest by hand.
#
# Usage: scripts/cluster-bench.sh [--instances N]   (about 3 minutes plus the build)
set -euo pipefail

INSTANCES=3
[[ "${1:-}" == "--instances" ]] && INSTANCES=$2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRIPT=cluster-bench
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"
SCRATCH=$ROOT/.build
PORT=$(free_port)
build snapshare-bench

OUT=$(mktemp -d "${TMPDIR:-/tmp}/snapshare-cluster-bench.XXXXXX")
CLUSTER_NO_QUOTAS=1 "$ROOT/scripts/cluster.sh" --instances "$INSTANCES" --port "$PORT" --env "$OUT/cluster.env" >"$OUT/cluster.out" 2>"$OUT/cluster.err" &
CLUSTER=$!
finish() {
    kill -TERM "$CLUSTER" 2>/dev/null || true
    wait "$CLUSTER" 2>/dev/null || true
    rm -rf "$OUT"
}
trap finish EXIT
# The cluster writes what it started (certificate, database port, instances) once all is up.
for _ in $(seq 600); do
    [[ -f "$OUT/cluster.env" ]] && break
    kill -0 "$CLUSTER" 2>/dev/null || break
    sleep 0.5
done
[[ -f "$OUT/cluster.env" ]] || { say "the cluster did not start:"; cat "$OUT/cluster.err" >&2; exit 1; }
# shellcheck disable=SC1091
source "$OUT/cluster.env"
CA=$CLUSTER_CA
INSTANCE_PIDS=("${CLUSTER_INSTANCE_PIDS[@]}")

# PostgreSQL's processes now (its server and the backends of the instances' connections).
postgres_pids() { pgrep -u postgres | sed 's/^/--database-pid /' | tr '\n' ' '; }

echo "| run (through HAProxy, $INSTANCES instances) | ops/s | p50 ms | p99 ms | instances' CPU µs/op | PostgreSQL CPU µs/op | errors | double views |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
run() {
    local label=$1; shift
    say "$label"
    local pids=() pid
    for pid in "${INSTANCE_PIDS[@]}"; do pids+=(--pid "$pid"); done
    # A short run first makes the fixtures (users, their connections to PostgreSQL, snaps to
    # open, albums), so the measured run's backends already exist when the bench weighs them.
    "$BIN/snapshare-bench" --server "127.0.0.1:$PORT" --ca "$CA" --session-cache "$OUT/sessions" --json \
        --duration 1 --warmup 0 "$@" >/dev/null
    # shellcheck disable=SC2046
    "$BIN/snapshare-bench" --server "127.0.0.1:$PORT" --ca "$CA" --session-cache "$OUT/sessions" --json \
        --duration 10 --warmup 1 --label "$label" "${pids[@]}" $(postgres_pids) "$@" | python3 -c '
import json, sys
r = json.load(sys.stdin)
print("| %s | %.0f | %.2f | %.2f | %.0f | %.0f | %d | %s |" % (sys.argv[1], r["ops_per_sec"], r["p50_ms"], r["p99_ms"],
      r.get("server_cpu_us_per_op", 0), r.get("database_cpu_us_per_op", 0), r["errors"], r.get("double_views", "")))
' "$label"
}
run "post 100 KB, durable" --scenario post --connections 50 --depth 4 --users 50
run "view (claim + 100 KB)" --scenario view --connections 50 --depth 4 --users 50 --view-snaps 3000
run "poll" --scenario poll --connections 50 --depth 3 --users 50
run "photo" --scenario photo --connections 50 --depth 4 --users 50

# The reference, in the same run: bare PostgreSQL inserting one 100 KB bytea per transaction
# (synchronous_commit on, the column stored as our images are), 50 pgbench clients, with the
# bytes already inside the server (INSERT … SELECT from a one-row table), so this is what
# PostgreSQL alone manages here, an upper bound for anything that must also receive the bytes.
# Its CPU is the whole machine's (pgbench's backends are gone before /proc could be read).
PGPORT=$CLUSTER_PGPORT
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
say "bare PostgreSQL reference (pgbench)"
psql -X -q -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres -c "CREATE DATABASE reference" >/dev/null
psql -X -q -h 127.0.0.1 -p "$PGPORT" -U postgres -d reference >/dev/null <<'SQL'
CREATE TABLE images (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, bytes bytea NOT NULL);
ALTER TABLE images ALTER COLUMN bytes SET STORAGE EXTERNAL;
CREATE TABLE source AS SELECT decode(string_agg(lpad(to_hex((random() * 255)::int), 2, '0'), ''), 'hex') AS bytes
    FROM generate_series(1, 102400);
SQL
echo "INSERT INTO images (bytes) SELECT bytes FROM source;" >"$OUT/insert.sql"
busy() { awk '/^cpu /{print $2 + $3 + $4 + $7 + $8}' /proc/stat; }
"$PGBIN/pgbench" -n -h 127.0.0.1 -p "$PGPORT" -U postgres -c 50 -j 2 -T 1 -f "$OUT/insert.sql" reference >/dev/null 2>&1
before=$(busy)
"$PGBIN/pgbench" -n -h 127.0.0.1 -p "$PGPORT" -U postgres -c 50 -j 2 -T 10 -f "$OUT/insert.sql" reference >"$OUT/pgbench.out" 2>&1
after=$(busy)
python3 - "$OUT/pgbench.out" $(( after - before )) "$(getconf CLK_TCK)" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
count = int(re.search(r"actually processed: (\d+)", text).group(1))
tps = float(re.search(r"tps = ([\d.]+)", text).group(1))
latency = float(re.search(r"latency average = ([\d.]+) ms", text).group(1))
cpu = int(sys.argv[2]) * 1e6 / int(sys.argv[3]) / count
print("| reference: bare PostgreSQL, 100 KB INSERT per transaction (pgbench, 50 clients; average latency in the p50 column; the whole machine's CPU) | %.0f | %.2f | | | %.0f | 0 | |" % (tps, latency, cpu))
PY

# The cross-instance watch delay: post on instance 1, Poll on instance 2 (straight to each,
# past HAProxy), from the post's acknowledgement to the Poll that sees it.
PORTS=("${CLUSTER_INSTANCE_PORTS[@]}")
say "watch delay"
"$BIN/snapshare-bench" --server "127.0.0.1:${PORTS[0]}" --ca "$CA" --watch-delay "127.0.0.1:${PORTS[1]}" --samples 300 --json | python3 -c '
import json, sys
r = json.load(sys.stdin)
print()
print("| cross-instance watch delay (post on one instance, Poll on another) | samples | p50 ms | p99 ms | max ms |")
print("|---|---:|---:|---:|---:|")
print("| post acknowledged on instance 1 → Poll on instance 2 says changed | %d | %.2f | %.2f | %.2f |" % (r["samples"], r["p50_ms"], r["p99_ms"], r["max_ms"]))
'

