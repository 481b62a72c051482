#!/usr/bin/env bash
# Fuzzes the frame and message decoders with libFuzzer + AddressSanitizer.
#   scripts/fuzz.sh [SECONDS]      (default 60)
# Crashes land in .build/fuzz-artifacts/; copy a reproducer into
# Tests/CoreTests/Fixtures/FuzzCorpus/ so `swift test` replays it forever after.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
swift build --product FuzzFrames --sanitize=fuzzer --sanitize=address \
  --scratch-path .build/fuzz -Xswiftc -use-ld=lld \
  -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp
mkdir -p .build/fuzz-corpus .build/fuzz-artifacts
cp Tests/CoreTests/Fixtures/FuzzCorpus/* .build/fuzz-corpus/ 2>/dev/null || true
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 \
  .build/fuzz/debug/FuzzFrames .build/fuzz-corpus -max_total_time="$seconds" \
  -artifact_prefix=.build/fuzz-artifacts/ -max_len=4096
