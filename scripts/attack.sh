#!/usr/bin/env bash
# Attacks from docs/threat-model.md against a release build, with what each bound holds:
#   hog-list  8 logged-in connections pipeline 64 listings of a 20,000-snap feed and never read
#   hog-open  8 logged-in connections pipeline 64 opens of 5 MB snaps and never read
#   flood     one address keeps opening connections (up to 10,000 held: TLS, Hello, a Ping a
#             minute) for 40 s while a client from 127.0.0.2 logs in every quarter second
# Prints the server's memory per connection and the bystander's latency, and rewrites the
# attack section of docs/benchmarks.md (between its attack markers).
#
# Usage: scripts/attack.sh         (a few minutes, plus the build)
# Env:   BENCH_SCRATCH=DIR build folder (default .build/bench, shared with scripts/bench.sh)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRIPT=attack
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"
SCRATCH=${BENCH_SCRATCH:-$ROOT/.build/bench}
DOC=$ROOT/docs/benchmarks.md
BEGIN='<!-- attack: begin (scripts/attack.sh rewrites this section) -->'
END='<!-- attack: end -->'
FLOOD_CONNECTIONS=10000
FLOOD_SECONDS=40

ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
if (( $(ulimit -n) < FLOOD_CONNECTIONS * 2 + 200 )); then
    FLOOD_CONNECTIONS=$(( ($(ulimit -n) - 200) / 2 ))
    say "open-file limit $(ulimit -n); the flood holds at most $FLOOD_CONNECTIONS"
fi

build snapshare-server snapshare-bench

WORK=$(mktemp -d "${TMPDIR:-/tmp}/snapshare-attack.XXXXXX")
SERVER_PID=""
cleanup() {
    [[ -n "$SERVER_PID" ]] && kill "$SERVER_PID" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# start_server NAME: a fresh server with default limits on a free port (log: NAME/stderr).
start_server() {
    SERVER_DIR=$WORK/$1
    mkdir -p "$SERVER_DIR"
    "$BIN/snapshare-server" --listen 127.0.0.1:0 --data "$SERVER_DIR/data" --certs "$SERVER_DIR/certs" \
        --log-level warning >"$SERVER_DIR/stdout" 2>"$SERVER_DIR/stderr" &
    SERVER_PID=$!
    SERVER_PORT=$(listening_port "$SERVER_DIR/stdout" "$SERVER_DIR/stderr" "$SERVER_PID")
}

stop_server() {
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
}

# attack NAME ARGS...: one run against a fresh server; its JSON in $WORK/NAME.json.
attack() {
    local name=$1; shift
    start_server "$name"
    say "$name"
    "$BIN/snapshare-bench" --server "127.0.0.1:$SERVER_PORT" --ca "$SERVER_DIR/certs/ca.pem" --pid "$SERVER_PID" \
        --attack "$name" --json "$@" >"$WORK/$name.json"
    stop_server
    cat "$WORK/$name.json" >&2
}

attack hog-list --connections 8 --depth 64 --feed-snaps 20000
attack hog-open --connections 8 --depth 64 --image-bytes 5000000
attack flood --connections "$FLOOD_CONNECTIONS" --duration "$FLOOD_SECONDS"

field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$WORK/$1.json" "$2"; }

TABLE=$(cat <<TABLE
Latest \`scripts/attack.sh\` run: $(date -u '+%Y-%m-%d %H:%M UTC'), release build, default limits
(connection buffer 12 MiB, 64 anonymous connections per address, 30 s login deadline).

| attack | what it held | server memory | what others saw |
|---|---|---|---|
| 8 connections × 64 pipelined $(field hog-list replies), never read | $(field hog-list answered) replies, all delivered once read ($(field hog-list errors) errors) | $(field hog-list per_connection_mib) MiB per connection (RSS $(field hog-list rss_baseline_mib) → $(field hog-list rss_loaded_mib) MiB) | |
| 8 connections × 64 pipelined $(field hog-open replies), never read | $(field hog-open answered) replies ($(field hog-open errors) errors) | $(field hog-open per_connection_mib) MiB per connection (RSS $(field hog-open rss_baseline_mib) → $(field hog-open rss_loaded_mib) MiB) | |
| one address opening connections for ${FLOOD_SECONDS} s (up to $FLOOD_CONNECTIONS held) | $(field flood completed_hello) completed Hello, $(field flood refused) refused at accept, of $(field flood attempted) attempts | RSS $(field flood server_rss_mib) MiB | a client from 127.0.0.2 logged in $(field flood bystander_logins) times: p50 $(field flood bystander_p50_ms) ms, p99 $(field flood bystander_p99_ms) ms, max $(field flood bystander_max_ms) ms, $(field flood bystander_failures) failures |

Before the buffer budget and the per-address caps (the outside report that led to them): the
same listing attack cost about 70 MB per connection (541 MB for 8), the opens 317 MB, and one
address holding 10,000 connections refused every other client indefinitely.
TABLE
)
echo "$TABLE"
if grep -qF "$BEGIN" "$DOC"; then
    python3 - "$DOC" "$BEGIN" "$END" "$TABLE" <<'PY'
import sys
path, begin, end, table = sys.argv[1:5]
text = open(path).read()
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
open(path, "w").write(head + begin + "\n" + table + "\n" + end + tail)
PY
    say "updated $DOC"
fi
