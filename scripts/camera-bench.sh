#!/usr/bin/env bash
# The camera preview's own figures, measured (never asserted in tests): `snapshare post --camera`, and the app's Camera tile,
# reading FFmpeg's test source (lavfi:testsrc2, 640x480 at 30 frames a second, so the source is
# never what limits it) in a tmux pane of 80x24 and of 200x60, half blocks in true colour:
#   - preview frames drawn a second: each screen the preview draws is one synchronized update
#     (ESC [ ? 2026 h), counted in what the pane received (tmux pipe-pane) over DURATION seconds
#     once the first picture is up; no change to the product;
#   - the client's CPU over the same seconds (utime + stime from /proc), and FFmpeg's beside it.
# Against a release server on 127.0.0.1 with a temporary data folder; Esc ends each preview and
# everything left is stopped by PID at the end. Prints a Markdown table.
#
# Usage: scripts/camera-bench.sh [DURATION]     (DURATION seconds a size and program, default 10; plus the build)
#        RATE=120 scripts/camera-bench.sh       (a faster source, to find where drawing limits)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRIPT=camera-bench
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"
SCRATCH=${BENCH_SCRATCH:-$ROOT/.build/bench}
DURATION=${1:-10}
RATE=${RATE:-30}
install_missing tmux:tmux ffmpeg:ffmpeg
build snapshare-server snapshare

start_tmux_bench_server
export SNAPSHARE_HOME=$WORK/home
printf 'camera bench password\n' | "$BIN/snapshare" --server "127.0.0.1:$PORT" --ca "$WORK/certs/ca.pem" \
    register viewer --class-code BENCH --password-stdin >/dev/null

screen() { tmux -S "$SOCKET" capture-pane -p -t app; }
wait_for() {
    for _ in $(seq 300); do screen | grep -qF "$1" && return; sleep 0.1; done
    say "the preview never showed \"$1\":"; screen >&2; exit 1
}
HZ=$(getconf CLK_TCK)
percent() { awk -v t="$1" -v hz="$HZ" -v s="$2" 'BEGIN { printf "%.1f", t / hz / s * 100 }'; }

# measure WHAT COLUMNS ROWS: one table row for `post --camera` (WHAT=post) or the app's Camera
# tile (WHAT=app) in a pane of that size.
measure() {
    local what=$1 columns=$2 rows=$3 size spec words client ffmpeg c0 c1 f0 f1 s0 s1 seconds frames
    # A size of its own for each pane, so pgrep finds this run's processes only.
    local height=480
    [[ $columns -ne 80 ]] && height=$((height - 2))
    [[ $what == app ]] && height=$((height - 4))
    size=640x$height
    spec="testsrc2=size=$size:rate=$RATE"
    words="post --camera --camera-device lavfi:$spec --feed Memes"
    [[ $what == app ]] && words="app --camera-device lavfi:$spec"
    tmux -S "$SOCKET" -f /dev/null new-session -d -s app -x "$columns" -y "$rows" \
        "env SNAPSHARE_HOME='$SNAPSHARE_HOME' TERM=xterm-256color COLORTERM=truecolor LANG=C.UTF-8 \
         '$BIN/snapshare' --server 127.0.0.1:$PORT --ca '$WORK/certs/ca.pem' $words 2>'$WORK/stderr'" </dev/null >/dev/null 2>&1
    if [[ $what == app ]]; then
        # The Post tab opens with the Camera tile selected.
        wait_for "Camera"
        tmux -S "$SOCKET" send-keys -t app Enter
    fi
    wait_for "Space takes"
    sleep 1
    client=$(pgrep -f "^$BIN/snapshare .*$words" | head -1)
    ffmpeg=$(pgrep -f "ffmpeg -hide_banner.* -i $spec" | head -1)
    [[ -n "$client" && -n "$ffmpeg" ]] || die "no snapshare or ffmpeg process for $spec"
    : >"$WORK/pane.out"
    tmux -S "$SOCKET" pipe-pane -t app "cat >>'$WORK/pane.out'"
    c0=$(cpu_ticks "$client"); f0=$(cpu_ticks "$ffmpeg"); s0=$(date +%s.%N)
    sleep "$DURATION"
    c1=$(cpu_ticks "$client"); f1=$(cpu_ticks "$ffmpeg"); s1=$(date +%s.%N)
    tmux -S "$SOCKET" pipe-pane -t app
    seconds=$(awk -v a="$s0" -v b="$s1" 'BEGIN { print b - a }')
    frames=$(grep -aoF $'\e[?2026h' "$WORK/pane.out" | wc -l)
    echo "| $what | ${columns}x${rows} | $(awk -v f="$frames" -v s="$seconds" 'BEGIN { printf "%.1f", f / s }') | $RATE |" \
         "$(percent $((c1 - c0)) "$seconds")% | $(percent $((f1 - f0)) "$seconds")% |" \
         "$(awk -v b="$(stat -c %s "$WORK/pane.out")" -v f="$frames" 'BEGIN { printf "%.0f", f ? b / f / 1024 : 0 }') KiB |"
    tmux -S "$SOCKET" send-keys -t app Escape
    [[ $what == app ]] && tmux -S "$SOCKET" send-keys -t app q
    for _ in $(seq 50); do kill -0 "$client" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$client" 2>/dev/null && die "snapshare did not end on Esc"
    kill -0 "$ffmpeg" 2>/dev/null && die "ffmpeg was left running after Esc"
    tmux -S "$SOCKET" kill-server 2>/dev/null || true
}

say "previewing $DURATION s at 80x24 and at 200x60, in post --camera and in the app"
echo "| program | terminal | preview frames/s | source frames/s | client CPU (of a core) | FFmpeg CPU | bytes a frame |"
echo "|---|---|---:|---:|---:|---:|---:|"
for what in post app; do
    measure "$what" 80 24
    measure "$what" 200 60
done
