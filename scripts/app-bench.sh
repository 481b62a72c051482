#!/usr/bin/env bash
# The full-screen app's own figures, measured (never asserted in tests):
#   - keystroke to finished redraw on a 200x60 terminal: the app times itself from reading the
#     input to having written the redrawn frame (SNAPSHARE_APP_TIMINGS), over several hundred
#     keys on Feeds (a feed of 10,000 snaps: arrows, pages, ends) and on the Map (pans, zooms);
#   - its CPU while idle on the Feeds tab for 30 s (it polls once a second; it must not spin).
# Against a release server on 127.0.0.1 with a temporary data folder, in tmux (installed if
# missing), everything stopped by PID at the end. Prints a Markdown table.
#
# Usage: scripts/app-bench.sh        (about 2 minutes plus the build)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRIPT=app-bench
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"
SCRATCH=${BENCH_SCRATCH:-$ROOT/.build/bench}
install_missing tmux:tmux
build snapshare-server snapshare snapshare-bench

start_tmux_bench_server
CLIENT=(--server "127.0.0.1:$PORT" --ca "$WORK/certs/ca.pem")

echo "app-bench: posting 10,000 snaps to Dog Spots" >&2
"$BIN/snapshare-bench" "${CLIENT[@]}" --class-code BENCH --session-cache "$WORK/sessions" --scenario list \
    --feed-snaps 10000 --duration 1 --warmup 0 --users 1 --connections 1 --depth 1 >/dev/null 2>&1

export SNAPSHARE_HOME=$WORK/home
printf 'app bench password\n' | "$BIN/snapshare" "${CLIENT[@]}" register viewer --class-code BENCH --password-stdin >/dev/null

screen() { tmux -S "$SOCKET" capture-pane -p -t app; }
wait_for() {
    for _ in $(seq 300); do screen | grep -qF "$1" && return; sleep 0.1; done
    say "the app never showed \"$1\":"; screen >&2; exit 1
}
keys() { local key=$1 count=$2; for _ in $(seq "$count"); do tmux -S "$SOCKET" send-keys -t app "$key"; sleep 0.02; done; }

tmux -S "$SOCKET" -f /dev/null new-session -d -s app -x 200 -y 60 \
    "env SNAPSHARE_HOME='$SNAPSHARE_HOME' SNAPSHARE_APP_TIMINGS='$WORK/timings.json' TERM=xterm-256color COLORTERM=truecolor \
     '$BIN/snapshare' --server 127.0.0.1:$PORT --ca '$WORK/certs/ca.pem'" </dev/null >/dev/null 2>&1
wait_for "Signed in as viewer"
APP_PID=$(pgrep -f "^$BIN/snapshare --server 127.0.0.1:$PORT" | head -1)

tmux -S "$SOCKET" send-keys -t app 2
wait_for "Dog Spots (10000)"
say "keys on Feeds and the Map"
keys Down 200; keys PageDown 40; keys End 5; keys PageUp 40; keys Home 5
tmux -S "$SOCKET" send-keys -t app 3
wait_for "zoom"
keys Right 40; keys + 4; keys Up 40; keys - 4
tmux -S "$SOCKET" send-keys -t app 2
sleep 3

say "idle on Feeds for 30 s"
HZ=$(getconf CLK_TCK)
T0=$(cpu_ticks "$APP_PID"); S0=$(date +%s.%N)
sleep 30
T1=$(cpu_ticks "$APP_PID"); S1=$(date +%s.%N)
IDLE=$(awk -v t=$((T1 - T0)) -v hz="$HZ" -v s0="$S0" -v s1="$S1" 'BEGIN { printf "%.2f", t / hz / (s1 - s0) * 100 }')

tmux -S "$SOCKET" send-keys -t app q
for _ in $(seq 100); do [[ -s "$WORK/timings.json" ]] && break; sleep 0.1; done
[[ -s "$WORK/timings.json" ]] || die "the app wrote no timings to $WORK/timings.json"
TIMINGS=$(cat "$WORK/timings.json")
field() { echo "$TIMINGS" | sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p"; }

echo "| figure (200x60, feed of 10,000 snaps) | measured | goal |"
echo "|---|---|---|"
echo "| keystroke to finished redraw, $(field redraws) redraws | p50 $(field p50_ms) ms, p99 $(field p99_ms) ms, max $(field max_ms) ms | smooth |"
echo "| CPU idle on Feeds (polls once a second) | ${IDLE}% of a core | < 1% |"
