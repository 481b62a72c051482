#!/usr/bin/env bash
# A semester in ten minutes (a benchmark, not a test): a release snapshare-server under a
# class-shaped load from snapshare-bench --soak (300 students, each on one connection polling
# once a second as the app does, posting, opening the newest snap they have not opened, trying a
# second open on purpose, listing the feeds, and leaving and coming back), while its certificate
# is renewed every two minutes the way certbot does it: a new key and leaf from the same CA
# written over the served files, then SIGHUP. What must hold: no error, no double view, no
# acknowledged post lost, resident memory within 10% of the warm-up's; p99 per request type.
# The table replaces the "Soak" section of docs/benchmarks.md (between its markers).
#
# Usage: scripts/soak.sh          (about 11 minutes plus the build)
# Env:   SOAK_STUDENTS (300), SOAK_SECONDS (600), SOAK_WARMUP (120), SOAK_RELOAD_EVERY (120),
#        SOAK_SCRATCH=DIR build folder (default .build/bench), SOAK_KEEP=1 keeps the temp folder,
#        SOAK_DOC=0 prints the table without touching docs/benchmarks.md.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRIPT=soak
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"
SCRATCH=${SOAK_SCRATCH:-$ROOT/.build/bench}
STUDENTS=${SOAK_STUDENTS:-300}
DURATION=${SOAK_SECONDS:-600}
WARMUP=${SOAK_WARMUP:-120}
RELOAD_EVERY=${SOAK_RELOAD_EVERY:-120}
DOC=$ROOT/docs/benchmarks.md
BEGIN='<!-- soak: begin (scripts/soak.sh rewrites this section) -->'
END='<!-- soak: end -->'

install_missing openssl:openssl
build snapshare-server snapshare-bench

WORK=$(mktemp -d "${TMPDIR:-/tmp}/snapshare-soak.XXXXXX")
SERVER_PID=
RELOADER_PID=
cleanup() {
    [[ -n "$RELOADER_PID" ]] && kill "$RELOADER_PID" 2>/dev/null || true
    [[ -n "$SERVER_PID" ]] && kill "$SERVER_PID" 2>/dev/null || true
    wait 2>/dev/null || true
    if [[ -z "${SOAK_KEEP:-}" ]]; then rm -rf "$WORK"; else say "kept $WORK"; fi
}
trap cleanup EXIT

# A CA of the school's own, and a leaf from it, as a deployment with --tls-cert/--tls-key has.
CERTS=$WORK/certs
mkdir -p "$CERTS"
(
    umask 077
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 -subj "/CN=Soak CA" \
        -keyout "$CERTS/ca.key" -out "$CERTS/ca.pem" 2>/dev/null
)
chmod 644 "$CERTS/ca.pem"

# renew: a new key and leaf from the CA, written over the served files (key first, each by rename),
# as a certbot deploy hook leaves them.
renew() {
    (
        umask 077
        openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=localhost" \
            -keyout "$CERTS/next.key" -out "$CERTS/next.csr" 2>/dev/null
        printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' >"$CERTS/ext"
        openssl x509 -req -in "$CERTS/next.csr" -CA "$CERTS/ca.pem" -CAkey "$CERTS/ca.key" -days 7 \
            -extfile "$CERTS/ext" -out "$CERTS/next.pem" 2>/dev/null
        cat "$CERTS/next.pem" "$CERTS/ca.pem" >"$CERTS/next-chain.pem"
        mv "$CERTS/next.key" "$CERTS/server.key"
        mv "$CERTS/next-chain.pem" "$CERTS/fullchain.pem"
    )
    chmod 644 "$CERTS/fullchain.pem"
}
renew

DATA=$WORK/data
# One classroom behind one address (127.0.0.1): the per-address caps fit the class.
"$BIN/snapshare-server" --listen 127.0.0.1:0 --data "$DATA" --tls-cert "$CERTS/fullchain.pem" \
    --tls-key "$CERTS/server.key" --log-level info --max-connections-per-address $((STUDENTS + 100)) \
    --max-anonymous-per-address $((STUDENTS + 100)) >"$WORK/server.out" 2>"$WORK/server.log" &
SERVER_PID=$!
PORT=$(listening_port "$WORK/server.out" "$WORK/server.log" "$SERVER_PID")
say "server $SERVER_PID on 127.0.0.1:$PORT; $STUDENTS students for $DURATION s, a renewal every $RELOAD_EVERY s"

# The renewals, in the background: each one a new leaf and a SIGHUP; the server must say it reloaded.
(
    reloads=0
    while sleep "$RELOAD_EVERY"; do
        renew
        kill -HUP "$SERVER_PID"
        reloads=$((reloads + 1))
        echo "$reloads" >"$WORK/reloads"
    done
) &
RELOADER_PID=$!

STATUS=0
"$BIN/snapshare-bench" --soak --server "127.0.0.1:$PORT" --ca "$CERTS/ca.pem" --pid "$SERVER_PID" \
    --users "$STUDENTS" --duration "$DURATION" --warmup "$WARMUP" >"$WORK/table.md" || STATUS=$?
kill "$RELOADER_PID" 2>/dev/null || true
wait "$RELOADER_PID" 2>/dev/null || true
RELOADER_PID=
kill -0 "$SERVER_PID" 2>/dev/null || die "the server died during the soak: $(tail -5 "$WORK/server.log")"
RELOADS=$(cat "$WORK/reloads" 2>/dev/null || echo 0)
# Each SIGHUP must have logged the new leaf's fingerprint, none may have kept the old one.
RELOADED=$(grep 'reload: serving the certificate' "$WORK/server.log" | grep -o 'leaf certificate SHA-256: [0-9A-F:]*' | sort -u | wc -l)
FAILED_RELOADS=$(grep -c -E 'reload: the certificate could not be used|reload: .*nothing changed' "$WORK/server.log" || true)
[[ $STATUS -eq 0 || $STATUS -eq 3 ]] || die "snapshare-bench failed ($STATUS)"

SUMMARY="$STUDENTS students for $((DURATION / 60)) min on $(nproc) cores, release build, SQLite; \
$RELOADS certificate renewals (new key and leaf, SIGHUP), each served after it ($RELOADED new fingerprints logged), \
$FAILED_RELOADS refused; warm-up $WARMUP s."
TABLE=$(cat "$WORK/table.md")
printf '%s\n\n%s\n' "$SUMMARY" "$TABLE"
[[ $STATUS -eq 0 ]] || say "something that must hold did not (see the table)"
if [[ $FAILED_RELOADS -ne 0 ]]; then
    say "a reload was refused: $(grep -E 'reload: the certificate could not be used|nothing changed' "$WORK/server.log" | head -3)"
    STATUS=1
fi
if (( RELOADED < RELOADS )); then
    say "the server logged $RELOADED new certificates for $RELOADS renewals"
    STATUS=1
fi

if [[ "${SOAK_DOC:-1}" != 0 ]]; then
    python3 - "$DOC" "$BEGIN" "$END" "$(date -u +%Y-%m-%d)" "$SUMMARY" "$WORK/table.md" <<'PY'
import sys
doc, begin, end, day, summary, table_path = sys.argv[1:]
table = open(table_path).read().strip()
section = f"{begin}\n## Soak: a class for ten minutes ({day})\n\n`scripts/soak.sh`: {summary}\n\n{table}\n{end}"
text = open(doc).read()
if begin in text and end in text:
    text = text[: text.index(begin)] + section + text[text.index(end) + len(end):]
else:
    text = text.rstrip("\n") + "\n\n" + section + "\n"
open(doc, "w").write(text)
PY
    say "docs/benchmarks.md updated"
fi
exit "$STATUS"
