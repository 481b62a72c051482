#!/usr/bin/env bash
# The standard benchmark suite: builds release, starts snapshare-server on a temporary data
# folder and a free port on 127.0.0.1, runs every scenario of snapshare-bench with fixed
# parameters, compares TLS handshakes with `openssl s_server` using the same certificate and the
# same `openssl s_time` client, measures photo and view replies against nginx serving a file of
# the same size to wrk (installing Debian's nginx-light and wrk if missing), and rewrites the top
# of docs/benchmarks.md (machine facts and tables). Everything below the notes marker in that
# file is kept as written.
#
# Usage: scripts/bench.sh            (about 11 minutes of runs on 2 cores, plus the build)
# Env:   BENCH_SCRATCH=DIR  build folder (default .build/bench), BENCH_KEEP=1 keeps the temp folder,
#        BENCH_ONLY=bytes  only the bytes path against nginx (about 2 minutes), table printed, document untouched.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRIPT=bench
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"
SCRATCH=${BENCH_SCRATCH:-$ROOT/.build/bench}
DOC=$ROOT/docs/benchmarks.md
MARKER='<!-- notes: everything below is kept by scripts/bench.sh -->'
SECONDS_PER_RUN=10
IDLE_CONNECTIONS=10000

# Ten thousand idle connections need that many descriptors in the server and in the bench.
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
if (( $(ulimit -n) < IDLE_CONNECTIONS + 200 )); then
    IDLE_CONNECTIONS=$(( $(ulimit -n) - 200 ))
    say "open-file limit $(ulimit -n); idle runs with $IDLE_CONNECTIONS connections"
fi

BUILD_START=$(date +%s)
build snapshare-server snapshare-bench
BUILD_SECONDS=$(( $(date +%s) - BUILD_START ))

WORK=$(mktemp -d "${TMPDIR:-/tmp}/snapshare-bench.XXXXXX")
RESULTS=$WORK/results
mkdir -p "$RESULTS"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    if [[ -z "${BENCH_KEEP:-}" ]]; then rm -rf "$WORK"; else say "kept $WORK"; fi
}
trap cleanup EXIT

# start_server NAME [ARGS...]: a fresh server on port 0; sets SERVER_PORT, SERVER_PID, SERVER_DIR.
# Every load comes from one address (127.0.0.1) and 50 users, so the per-address and per-user
# caps are raised to the connection limit (scripts/attack.sh measures them at their defaults).
start_server() {
    SERVER_DIR=$WORK/$1
    shift
    mkdir -p "$SERVER_DIR"
    "$BIN/snapshare-server" --listen 127.0.0.1:0 --data "$SERVER_DIR/data" --certs "$SERVER_DIR/certs" \
        --log-level warning --max-connections $(( IDLE_CONNECTIONS + 100 )) \
        --max-connections-per-address $(( IDLE_CONNECTIONS + 100 )) --max-anonymous-per-address 1000 \
        --max-connections-per-user $(( IDLE_CONNECTIONS + 100 )) "${NO_QUOTAS[@]}" "$@" \
        >"$SERVER_DIR/stdout" 2>"$SERVER_DIR/stderr" &
    SERVER_PID=$!
    PIDS+=("$SERVER_PID")
    SERVER_PORT=$(listening_port "$SERVER_DIR/stdout" "$SERVER_DIR/stderr" "$SERVER_PID")
}

stop_server() {
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
}

RUN=0
# bench LABEL ARGS...: one snapshare-bench run against the current server, JSON kept in RESULTS.
bench() {
    local label=$1; shift
    RUN=$((RUN + 1))
    local out
    out=$(printf '%s/%02d-%s.json' "$RESULTS" "$RUN" "$label")
    say "$label"
    "$BIN/snapshare-bench" --server "127.0.0.1:$SERVER_PORT" --ca "$SERVER_DIR/certs/ca.pem" --pid "$SERVER_PID" \
        --session-cache "$SERVER_DIR/sessions" --label "$label" --json "$@" >"$out" || {
        local status=$?
        # Exit 3 is a correctness failure with a complete report: keep it, it shows in the table.
        [[ $status -eq 3 ]] || { say "$label failed ($status)"; exit 1; }
    }
}

# s_time LABEL PORT PID TARGET: `openssl s_time -new` for SECONDS_PER_RUN, timed by the wall clock.
s_time() {
    local label=$1 port=$2 pid=$3 target=$4
    RUN=$((RUN + 1))
    say "$label"
    local cpu0 cpu1 start end line count
    cpu0=$(cpu_ticks "$pid")
    start=$(date +%s.%N)
    line=$(openssl s_time -connect "127.0.0.1:$port" -new -time "$SECONDS_PER_RUN" -CAfile "$SERVER_DIR/certs/ca.pem" 2>&1 \
        | grep "connections in" | head -1)
    end=$(date +%s.%N)
    cpu1=$(cpu_ticks "$pid")
    count=${line%% *}
    awk -v label="$label" -v target="$target" -v n="$count" -v s="$start" -v e="$end" -v c=$((cpu1 - cpu0)) \
        -v hz="$(getconf CLK_TCK)" 'BEGIN {
        printf "{\"label\":\"%s\",\"scenario\":\"s_time\",\"target_server\":\"%s\",\"operations\":%d,", label, target, n
        printf "\"duration_s\":%.3f,\"ops_per_sec\":%.1f,\"server_cpu_us_per_op\":%.1f,\"errors\":0,", e - s, n / (e - s), c * 1000000 / hz / n
        printf "\"connections\":1,\"depth\":1,\"available\":true}\n" }' >"$(printf '%s/%02d-%s.json' "$RESULTS" "$RUN" "$label")"
}

# The reference for the bytes path: nginx serving a file of the same size as our photos over
# TLS 1.3 with the same certificate and key and the same cipher suite (AES-128-GCM, our
# server's first choice), keep-alive, one worker process, bound to 127.0.0.1, driven by wrk
# (one request in flight per connection). Debian's nginx-light and wrk are installed if missing.
# The package's own nginx service is never used (policy-rc.d usually keeps it from starting).
ensure_reference_tools() { install_missing nginx:nginx-light wrk:wrk; }

# start_nginx FILE: a throwaway nginx serving FILE as /photo; sets NGINX_PID (its master) and NGINX_PORT.
start_nginx() {
    local dir=$WORK/nginx
    mkdir -p "$dir/www" "$dir/temp"
    cp "$1" "$dir/www/photo"
    NGINX_PORT=$(free_port)
    cat >"$dir/nginx.conf" <<CONF
daemon off;
# The worker runs as whoever runs the bench (not nobody), so it can read the temporary folder.
user $(id -un) $(id -gn);
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $dir/temp/body;
    proxy_temp_path $dir/temp/proxy;
    fastcgi_temp_path $dir/temp/fastcgi;
    uwsgi_temp_path $dir/temp/uwsgi;
    scgi_temp_path $dir/temp/scgi;
    keepalive_requests 1000000000;
    keepalive_timeout 60s;
    default_type application/octet-stream;
    server {
        listen 127.0.0.1:$NGINX_PORT ssl;
        ssl_certificate $SERVER_DIR/certs/server.pem;
        ssl_certificate_key $SERVER_DIR/certs/server.key;
        ssl_protocols TLSv1.3;
        ssl_conf_command Ciphersuites TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256;
        ssl_prefer_server_ciphers on;
        ssl_session_tickets off;
        location / { root $dir/www; }
    }
}
CONF
    nginx -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" </dev/null >"$dir/stdout" 2>&1 &
    NGINX_PID=$!
    PIDS+=("$NGINX_PID")
    for _ in $(seq 100); do
        # Serving once the worker exists and the port answers.
        # (/proc files report size 0, so the children are read, not tested with -s.)
        [[ -n "$(cat "/proc/$NGINX_PID/task/$NGINX_PID/children" 2>/dev/null)" ]] \
            && (exec 3<>"/dev/tcp/127.0.0.1/$NGINX_PORT") 2>/dev/null && return
        kill -0 "$NGINX_PID" 2>/dev/null || break
        sleep 0.1
    done
    say "nginx did not start:"
    cat "$dir/error.log" >&2
    exit 1
}

# nginx_ticks: CPU ticks of the nginx master and its worker together.
nginx_ticks() {
    local total pid
    total=$(cpu_ticks "$NGINX_PID")
    for pid in $(cat "/proc/$NGINX_PID/task/$NGINX_PID/children"); do
        total=$(( total + $(cpu_ticks "$pid") ))
    done
    echo "$total"
}

# wrk_run LABEL: wrk with 50 connections against nginx for SECONDS_PER_RUN after a second of
# warm-up; nginx's CPU per reply from /proc as for our server, wrk's own CPU from `time`.
wrk_run() {
    local label=$1 url="https://127.0.0.1:$NGINX_PORT/photo"
    RUN=$((RUN + 1))
    say "$label"
    wrk -t1 -c50 -d1s "$url" >/dev/null
    local cpu0 cpu1 out times
    cpu0=$(nginx_ticks)
    out=$( { TIMEFORMAT='%U %S'; time wrk -t1 -c50 -d"${SECONDS_PER_RUN}s" --latency "$url"; } 2>"$WORK/wrk.time")
    cpu1=$(nginx_ticks)
    times=$(tail -1 "$WORK/wrk.time")
    echo "$out" | awk -v label="$label" -v c=$((cpu1 - cpu0)) -v hz="$(getconf CLK_TCK)" -v times="$times" \
        -v bytes="$(stat -c %s "$WORK/nginx/www/photo")" '
        function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
        / requests in / { n = $1; secs = $4 + 0 }
        /^ +Latency / { maxms = ms($4) }
        /^ +50% / { p50 = ms($2) }
        /^ +90% / { p90 = ms($2) }
        /^ +99% / { p99 = ms($2) }
        /Non-2xx or 3xx responses:/ { errors += $NF }
        /Socket errors:/ { for (i = 4; i <= NF; i += 2) errors += $i + 0 }
        END {
            split(times, t, " ")
            printf "{\"label\":\"%s\",\"scenario\":\"wrk\",\"target_server\":\"nginx\",\"file_bytes\":%d,", label, bytes
            printf "\"operations\":%d,\"duration_s\":%.3f,\"ops_per_sec\":%.1f,", n, secs, n / secs
            printf "\"p50_ms\":%.3f,\"p90_ms\":%.3f,\"p99_ms\":%.3f,\"max_ms\":%.3f,", p50, p90, p99, maxms
            printf "\"server_cpu_us_per_op\":%.1f,\"client_cpu_us_per_op\":%.1f,", c * 1000000 / hz / n, (t[1] + t[2]) * 1000000 / n
            printf "\"errors\":%d,\"connections\":50,\"depth\":1,\"available\":true}\n", errors
        }' >"$(printf '%s/%02d-%s.json' "$RESULTS" "$RUN" "$label")"
}

stop_nginx() {
    kill "$NGINX_PID" 2>/dev/null || true
    wait "$NGINX_PID" 2>/dev/null || true
}

# The bytes path against nginx, in one sitting: nginx serving a file the size of our photos
#    (one of the bench's own PNGs) to wrk, then photo and view on our server, with the shape wrk
#    has (50 connections, one request in flight each), three times over, alternated so that a
#    slow phase of the machine hits all three alike; the table shows per-figure medians.
bytes_path() {
    ensure_reference_tools
    start_nginx "$(ls "$WORK/photos"/*.png | head -1)"
    for _ in 1 2 3; do
        wrk_run nginx-100k
        bench photo-50x1 "${COMMON[@]}" --scenario photo --connections 50 --depth 1
        bench view-50x1 "${COMMON[@]}" --scenario view --connections 50 --depth 1 --view-snaps 3000
    done
    stop_nginx
}

D=$SECONDS_PER_RUN
COMMON=(--duration "$D" --warmup 1 --users 50)

# 1. Cost as data grows: poll and list with about 1,000 snaps stored, then with 100,000.
#    The first list run posts the 1,000 snaps of the listed feed. Album photos come from a
#    folder of 21 PNGs of 100 KB that the bench writes.
"$BIN/snapshare-bench" --write-photos "$WORK/photos"
#    Each of these four runs five times for 4 s; the table shows each figure's median over
#    the five (so one row may mix runs), the sum of their errors and the largest RSS.
start_server main --photos "dir:$WORK/photos"
if [[ "${BENCH_ONLY:-}" == bytes ]]; then
    bytes_path
    stop_server
    "$BIN/snapshare-bench" --summarize "$RESULTS"
    exit 0
fi
SHORT=(--duration 4 --warmup 1 --users 50)
for _ in 1 2 3 4 5; do
    bench list-1k "${SHORT[@]}" --scenario list --connections 50 --depth 1 --feed-snaps 1000
    bench poll-1k "${SHORT[@]}" --scenario poll --connections 50 --depth 3
done
for _ in 1 2 3 4 5; do
    bench poll-100k "${SHORT[@]}" --scenario poll --connections 50 --depth 3 --stored-snaps 100000
    bench list-100k "${SHORT[@]}" --scenario list --connections 50 --depth 1 --feed-snaps 1000
done

# 2. The other scenarios on the same server.
bench poll-new-snaps "${COMMON[@]}" --scenario poll --connections 50 --depth 3 --new-snaps-per-sec 20
bench post "${COMMON[@]}" --scenario post --connections 50 --depth 4
bench view "${COMMON[@]}" --scenario view --connections 50 --depth 4 --view-snaps 3000
bench photo "${COMMON[@]}" --scenario photo --connections 50 --depth 4
bench mixed "${COMMON[@]}" --scenario mixed --connections 50 --depth 2 --view-snaps 400
bench handshake "${COMMON[@]}" --scenario handshake --connections 1
bench handshake-16 "${COMMON[@]}" --scenario handshake --connections 16

# 3. Handshakes from a client we did not write: openssl s_time against us, then against
#    openssl s_server with the same P-256 certificate and key (no session tickets, like us).
s_time s_time-snapshare "$SERVER_PORT" "$SERVER_PID" snapshare-server
# -www: s_server then never reads its standard input (at end of file it would stop serving).
# Port 0: it binds a free port and prints it.
openssl s_server -accept 127.0.0.1:0 -cert "$SERVER_DIR/certs/server.pem" -key "$SERVER_DIR/certs/server.key" \
    -tls1_3 -num_tickets 0 -www </dev/null >"$WORK/s_server.out" 2>&1 &
S_SERVER_PID=$!
PIDS+=("$S_SERVER_PID")
for _ in $(seq 100); do grep -q "^ACCEPT" "$WORK/s_server.out" 2>/dev/null && break; sleep 0.1; done
S_SERVER_PORT=$(sed -n 's/^ACCEPT .*:\([0-9]*\)$/\1/p' "$WORK/s_server.out")
[[ -n "$S_SERVER_PORT" ]] || { say "openssl s_server did not start:"; cat "$WORK/s_server.out" >&2; exit 1; }
s_time s_time-openssl "$S_SERVER_PORT" "$S_SERVER_PID" "openssl s_server"
kill "$S_SERVER_PID" 2>/dev/null || true

# 4. The bytes path against nginx (see bytes_path above).
bytes_path
stop_server

# 5. Idle connections on a fresh server, so its memory before them is only its own.
start_server idle
bench idle --duration "$D" --warmup 1 --users 50 --scenario idle --connections "$IDLE_CONNECTIONS"
stop_server

# 6. A disk probe for the post figure: one 100 KB write and fdatasync at a time, as SQLite
#    commits one transaction, with nothing batched.
FSYNC_LINE=$(dd if=/dev/zero of="$WORK/fsync-probe" bs=100k count=200 oflag=dsync 2>&1 | tail -1)
FSYNC_MS=$(echo "$FSYNC_LINE" | awk '{ for (i = 1; i <= NF; i++) if ($i == "s,") print $(i - 1) * 1000 / 200 }')

# The document: facts and tables on top, hand-written notes below the marker.
CPU_MODEL=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
OPENSSL_VERSION=$(openssl version)
SQLITE_VERSION=$(pkg-config --modversion sqlite3 2>/dev/null || echo unknown)
NOTES=""
if [[ -f "$DOC" ]] && grep -qF "$MARKER" "$DOC"; then
    NOTES=$(awk -v marker="$MARKER" 'found { print } index($0, marker) { found = 1 }' "$DOC")
fi
{
    echo "# Benchmarks"
    echo
    echo "Latest run of \`scripts/bench.sh\` (release build, loopback, TLS 1.3; client and server share the machine)."
    echo
    echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "- Cores: $(nproc); CPU: $CPU_MODEL; kernel $(uname -r)"
    echo "- $OPENSSL_VERSION; SQLite $SQLITE_VERSION; $(swift --version 2>/dev/null | head -1)"
    echo "- Disk: one 100 KB write + fdatasync takes ${FSYNC_MS:-?} ms here (\`dd oflag=dsync\`); build took ${BUILD_SECONDS}s"
    echo "- Each run: ${D}s measured after 1s of warm-up (poll and list: per-figure medians of five 4s runs), 50 users;"
    echo "  \`snapshare-bench --help\` explains the flags, the notes below explain the scenarios"
    echo
    echo "## Results"
    echo
    "$BIN/snapshare-bench" --summarize "$RESULTS"
    echo
    echo "$MARKER"
    echo "$NOTES"
} >"$DOC.new"
mv "$DOC.new" "$DOC"
say "wrote $DOC"
