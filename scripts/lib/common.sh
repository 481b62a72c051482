# Helpers the scripts share; sourced, never run. Each script sets SCRIPT (its name in messages).
# shellcheck shell=bash

# say MESSAGE...: a progress line on stderr, prefixed with the script's name.
say() { echo "$SCRIPT: $*" >&2; }

# die MESSAGE...: says why and stops the script.
die() { say "$@"; exit 1; }

# install_missing COMMAND:PACKAGE...: installs, from Debian, the package of every command not found.
install_missing() {
    local wanted missing=()
    for wanted in "$@"; do
        command -v "${wanted%%:*}" >/dev/null || missing+=("${wanted#*:}")
    done
    [[ ${#missing[@]} -eq 0 ]] && return
    say "installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
}

# build PRODUCT... : builds the products in release into SCRATCH (each script sets it: .build/bench
# for the benchmark scripts, .build for the cluster ones; BUILD_CONFIGURATION=debug for a debug
# build) and sets BIN to their folder.
build() {
    local configuration=${BUILD_CONFIGURATION:-release} product
    say "building $* ($configuration) in $SCRATCH"
    for product in "$@"; do
        (cd "$ROOT" && swift build -c "$configuration" --product "$product" --scratch-path "$SCRATCH" >&2)
    done
    BIN=$(cd "$ROOT" && swift build -c "$configuration" --scratch-path "$SCRATCH" --show-bin-path)
}

# free_port: a TCP port on 127.0.0.1 nobody listens on now, for programs that cannot bind port 0
# and say which one they got.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# listening_port LOG ERRORS [PID]: waits (up to 30 s) for snapshare-server's "listening on" line
# in LOG and prints the port; stops the script with ERRORS shown if the server never says it, or
# at once if the server (PID, when given) has died.
listening_port() {
    local log=$1 errors=$2 pid=${3:-} port=
    for _ in $(seq 300); do
        port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\) (TLS.*/\1/p' "$log" 2>/dev/null)
        [[ -n "$port" ]] && break
        [[ -n "$pid" ]] && ! kill -0 "$pid" 2>/dev/null && break
        sleep 0.1
    done
    [[ -n "$port" ]] || { say "the server did not start:"; cat "$errors" >&2; exit 1; }
    echo "$port"
}

# cpu_ticks PID: the user and system CPU the process has used, in clock ticks (getconf CLK_TCK).
cpu_ticks() {
    [[ -r "/proc/$1/stat" ]] || die "process $1 is gone"
    awk '{ split($0, a, ") "); split(a[2], f, " "); print f[12] + f[13] }' "/proc/$1/stat"
}

# start_tmux_bench_server: for the scripts that drive the client in tmux. Makes WORK, a temporary
# folder (SOCKET in it for a private tmux server), starts "$BIN/snapshare-server" on 127.0.0.1
# (class code BENCH, data and certificates in WORK) and sets SERVER_PID and PORT; on exit the tmux
# server and the server are stopped and WORK removed.
start_tmux_bench_server() {
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/snapshare-$SCRIPT.XXXXXX")
    SOCKET=$WORK/tmux.socket
    SERVER_PID=
    trap stop_tmux_bench_server EXIT
    "$BIN/snapshare-server" --listen 127.0.0.1:0 --data "$WORK/data" --certs "$WORK/certs" --class-code BENCH \
        --log-level warning >"$WORK/server.out" 2>"$WORK/server.err" &
    SERVER_PID=$!
    PORT=$(listening_port "$WORK/server.out" "$WORK/server.err" "$SERVER_PID")
}

stop_tmux_bench_server() {
    tmux -S "$SOCKET" kill-server 2>/dev/null || true
    [[ -n "$SERVER_PID" ]] && kill "$SERVER_PID" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$WORK"
}

# A load generator is not a student: the servers it measures take no posting quota.
NO_QUOTAS=(--quota-posts-per-hour 1000000 --quota-bytes 1125899906842624)
