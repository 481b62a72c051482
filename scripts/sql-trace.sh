#!/usr/bin/env bash
# sql-trace.sh [BASE]: what a change did to the SQL both storage engines run. Runs the server's
# unit suites (the store contract on SQLite and PostgreSQL, throttles, deadlocks, the executor) at
# BASE (default HEAD, the last commit) and at the working tree, each statement
# recorded with its values in place (SNAPSHARE_SQL_TRACE), and prints the statement shapes only
# one side ran. A refactor that meant to change no SQL prints none.
#
# BASE must have SQLTrace (commit 76337d1 or later). PostgreSQL's half runs when Debian's
# postgresql-15 is installed. Leaves BASE's build in .build/sql-trace-base.
set -euo pipefail
SCRIPT=sql-trace
ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$ROOT/scripts/lib/common.sh"
[[ "${1:-}" == "--help" ]] && { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0; }
BASE=${1:-HEAD}
export PATH="/opt/swift/usr/bin:$PATH"
work=$(mktemp -d)
trap 'git -C "$ROOT" worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

trace() { # trace FOLDER SCRATCH OUT: runs the suites in FOLDER with tracing into OUT
    (cd "$1" && swift build --build-tests --scratch-path "$2" >&2 \
        && SWIFT_DETERMINISTIC_HASHING=1 SNAPSHARE_SQL_TRACE="$3" \
           swift test --skip-build --scratch-path "$2" --filter ServerTests >"$3.log" 2>&1) \
        || { say "the suites failed in $1 (see $3.log)"; tail -5 "$3.log" >&2; exit 1; }
}

say "tracing $BASE"
git -C "$ROOT" worktree add --detach "$work/base" "$BASE" >/dev/null 2>&1
trace "$work/base" "$ROOT/.build/sql-trace-base" "$work/before.txt"
say "tracing the working tree"
trace "$ROOT" "$ROOT/.build" "$work/after.txt"
python3 "$ROOT/scripts/lib/sql-shapes.py" "$work/before.txt" "$work/after.txt"
