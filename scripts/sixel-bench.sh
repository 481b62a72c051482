#!/usr/bin/env bash
# The picture encoders' figures (docs/benchmarks.md, "Sixel pictures"): `snapshare-bench --sixel`
# RUNS times (default 3), release build, no server: time and bytes per 1600x900 picture for each
# encoder, from the bench; then the error of every sixel it wrote, measured outside our code:
# ImageMagick decodes it, and `compare -metric MAE` gives the mean absolute error against the
# picture it was made from, in percent of full scale, both pixel for pixel and on 4x4-block
# averages (`-scale 25%`, roughly what the eye sees of dithering at a normal distance).
# Cells (half blocks) have no pixels of their own: each is shown in xterm on a
# private Xvfb (DejaVu Sans Mono 11, 24-bit colour), the window is read back with ImageMagick's
# `import`, and its cells are compared in the same two ways with the picture scaled to them, as
# the pixel tests read pictures (Sources/TestSupport/X11Terminal).
# Prints each run's table, then the errors (the same in every run: the encoders are deterministic).
#
# Usage: scripts/sixel-bench.sh [RUNS]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRIPT=sixel-bench
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"
SCRATCH=${BENCH_SCRATCH:-$ROOT/.build/bench}
RUNS=${1:-3}
install_missing convert:imagemagick compare:imagemagick Xvfb:xvfb xterm:xterm xdotool:xdotool
build snapshare-bench
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

for run in $(seq "$RUNS"); do
    say "run $run of $RUNS"
    mkdir -p "$WORK/$run"
    "$BIN/snapshare-bench" --sixel --sixel-output "$WORK/$run"
done

# mae A B: ImageMagick's normalized mean absolute error of B against A, in percent.
mae() { compare -metric MAE "$1" "$2" null: 2>&1 | sed -n 's/.*(\(.*\)).*/\1/p' | awk '{ printf "%.2f", $1 * 100 }'; }

echo
echo "| picture | encoder | error, pixel for pixel | error, 4x4 averages |"
echo "|---|---|---:|---:|"
for source in "$WORK"/1/*.ppm; do
    picture=$(basename "$source" .ppm)
    [[ "$picture" == cells-* ]] && continue
    convert "$source" -scale 25% "$WORK/source-small.png"
    for output in "$WORK/1/$picture"-*.out; do
        encoder=${output#"$WORK/1/$picture"-}
        encoder=${encoder%.out}
        # Sixels only (kitty and iTerm2 carry the pixels losslessly); what precedes ESC P (a
        # cursor move, DECSDM) is for the terminal, not the picture.
        grep -q $'\eP' "$output" || continue
        python3 -c 'import sys; b = open(sys.argv[1], "rb").read(); sys.stdout.buffer.write(b[b.index(b"\x1bP"):])' "$output" \
            > "$WORK/picture.six"
        convert "sixel:$WORK/picture.six" "$WORK/decoded.png"
        convert "$WORK/decoded.png" -scale 25% "$WORK/decoded-small.png"
        echo "| $picture | $encoder | $(mae "$source" "$WORK/decoded.png")% | $(mae "$WORK/source-small.png" "$WORK/decoded-small.png")% |"
    done
done

# Cells: each screen's escapes shown in xterm, its cells read back.
DISPLAY_NUMBER=$((100 + RANDOM % 400))
Xvfb ":$DISPLAY_NUMBER" -screen 0 2600x1600x24 -nolisten tcp >/dev/null 2>&1 &
XVFB=$!
trap 'kill "$XVFB" 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do [[ -S /tmp/.X11-unix/X$DISPLAY_NUMBER ]] && break; sleep 0.1; done
export DISPLAY=:$DISPLAY_NUMBER
for source in "$WORK"/1/cells-*.ppm; do
    screen=$(basename "$source" .ppm)
    # "…-80x24-cells": the screen's size.
    size=$(grep -o '[0-9]*x[0-9]*-cells$' <<<"$screen")
    columns=${size%%x*}
    rows=${size#*x}
    rows=${rows%-cells}
    convert "$source" -scale 25% "$WORK/source-small.png"
    for output in "$WORK/1/$screen"-*.cells; do
        encoder=${output#"$WORK/1/$screen"-}
        encoder=${encoder%.cells}
        rm -f "$WORK/shown"
        # One row more than the picture, so that output ending in a newline cannot scroll it.
        xterm -display "$DISPLAY" -fa Monospace -fs 11 -geometry "${columns}x$((rows + 1))+0+0" -bw 0 -xrm 'XTerm*directColor: true' \
            -e sh -c "printf '\\033[?25l\\033[H\\033[2J'; cat '$output'; touch '$WORK/shown'; sleep 60" &
        TERMINAL=$!
        for _ in $(seq 200); do [[ -f "$WORK/shown" ]] && break; sleep 0.05; done
        sleep 1
        window=$(xdotool search --sync --pid "$TERMINAL" | head -1)
        geometry=$(xdotool getwindowgeometry "$window" | sed -n 's/.*Geometry: //p')
        cell_width=$(( (${geometry%x*} - 4) / columns ))
        cell_height=$(( (${geometry#*x} - 4) / (rows + 1) ))
        import -display "$DISPLAY" -window root "$WORK/shot.png"
        kill "$TERMINAL" 2>/dev/null || true
        wait "$TERMINAL" 2>/dev/null || true
        box="$((columns * cell_width))x$((rows * cell_height))"
        convert "$WORK/shot.png" -crop "$box+2+2" +repage "$WORK/cells.png"
        convert "$source" -resize "$box!" "$WORK/source-box.png"
        convert "$WORK/cells.png" -scale 25% "$WORK/cells-small.png"
        convert "$WORK/source-box.png" -scale 25% "$WORK/source-box-small.png"
        echo "| $screen | $encoder | $(mae "$WORK/source-box.png" "$WORK/cells.png")% | $(mae "$WORK/source-box-small.png" "$WORK/cells-small.png")% |"
    done
done
