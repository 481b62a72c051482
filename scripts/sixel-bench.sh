#!/usr/bin/env bash
# The picture encoders' figures (docs/benchmarks.md, "Sixel pictures"): `snapshare-bench --sixel`
# RUNS times (default 3), release build, no server: time and bytes per 1600x900 picture for each
# encoder, from the bench; then the error of every sixel it wrote, measured outside our code:
# ImageMagick decodes it, and `compare -metric MAE` gives the mean absolute error against the
# picture it was made from, in percent of full scale, both pixel for pixel and on 4x4-block
# averages (`-scale 25%`, roughly what the eye sees of dithering at a normal distance).
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
install_missing convert:imagemagick compare:imagemagick
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
