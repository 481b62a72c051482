#!/usr/bin/env bash
# print-vectors.sh [NAME ...]: prints docs/PROTOCOL.md's golden vectors (all, or those named) in the
# document's layout, from the codec: what to paste into PROTOCOL.md and, one line each, into
# Tests/CoreTests/Fixtures/protocol-vectors.frozen when adding a message (see PROTOCOL.md, section 7).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ "${1:-}" == "--help" ]] && { sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//'; exit 0; }
export PATH="/opt/swift/usr/bin:$PATH"
swift build --product protocol-vectors >&2
exec "$(swift build --show-bin-path)/protocol-vectors" "$@"
