#!/usr/bin/env bash
# A Snapshare class on more than one server, on this machine: a throwaway PostgreSQL, N
# snapshare-server instances sharing it, and HAProxy in front of them on one address (TCP mode,
# TLS passed through to the instances, which share one certificate; each instance's GET /health
# on its own --metrics port decides whether it is in the rotation). Everything listens on
# 127.0.0.1 and is stopped by PID when the script ends (Ctrl-C). Debian's postgresql-15 and
# haproxy are installed if missing.
#
# Usage: scripts/cluster.sh [--instances N] [--port PORT] [--env FILE] [--keep]
#   --instances N  how many snapshare-server instances (default 3)
#   --port PORT    the one address students use, 127.0.0.1:PORT (default 7443)
#   --env FILE     once everything is up, write FILE for other scripts to source: CLUSTER_CA,
#                  CLUSTER_DATABASE, CLUSTER_PGPORT, CLUSTER_INSTANCE_PIDS, CLUSTER_INSTANCE_PORTS
#                  and CLUSTER_METRICS_PORTS
#   --keep         keep the temporary folder (database, certificates, logs) at the end
# Env: CLUSTER_BUILD=debug uses the debug build (default: release), SNAPSHARE_CLASS_CODE as for the server,
#      CLUSTER_NO_QUOTAS=1 lifts the posting quotas (for a load generator).
set -euo pipefail

INSTANCES=3
PORT=7443
KEEP=
ENV_FILE=
while [[ $# -gt 0 ]]; do
    case $1 in
        --instances) INSTANCES=$2; shift 2 ;;
        --port) PORT=$2; shift 2 ;;
        --env) ENV_FILE=$2; shift 2 ;;
        --keep) KEEP=1; shift ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "cluster: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRIPT=cluster
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"
SCRATCH=$ROOT/.build
install_missing haproxy:haproxy
# initdb and pg_ctl are not on the PATH; psql alone could be the client package without a server.
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || install_missing initdb:postgresql-15
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
BUILD_CONFIGURATION=${CLUSTER_BUILD:-release} build snapshare-server

# A facts file left by an earlier run would name processes that are gone.
[[ -n "$ENV_FILE" ]] && rm -f "$ENV_FILE"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/snapshare-cluster.XXXXXX")
chmod 755 "$WORK"
PIDS=()
AS_POSTGRES=()
if [[ $(id -u) -eq 0 ]]; then
    # PostgreSQL refuses to run as root: its files belong to the postgres user.
    AS_POSTGRES=(runuser -u postgres --)
fi
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    "${AS_POSTGRES[@]}" "$PGBIN/pg_ctl" -D "$WORK/pg" -m fast -w stop >/dev/null 2>&1 || true
    [[ -n "$ENV_FILE" ]] && rm -f "$ENV_FILE"
    if [[ -z "$KEEP" ]]; then rm -rf "$WORK"; else say "kept $WORK"; fi
}
trap cleanup EXIT
trap 'exit 0' INT TERM

# 1. PostgreSQL: a new cluster in the temporary folder, on a free port, loopback only.
PGPORT=$(free_port)
mkdir -p "$WORK/pg" "$WORK/pgsocket"
[[ ${#AS_POSTGRES[@]} -gt 0 ]] && chown postgres "$WORK/pg" "$WORK/pgsocket"
"${AS_POSTGRES[@]}" "$PGBIN/initdb" -D "$WORK/pg" -A trust -U postgres -E UTF8 >"$WORK/initdb.log" 2>&1
"${AS_POSTGRES[@]}" "$PGBIN/pg_ctl" -D "$WORK/pg" -l "$WORK/pg/server.log" -w \
    -o "-p $PGPORT -k $WORK/pgsocket -c listen_addresses=127.0.0.1" start >/dev/null
psql -X -q -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres -c "CREATE DATABASE snapshare" >/dev/null
DATABASE="postgresql://postgres@127.0.0.1:$PGPORT/snapshare"
say "PostgreSQL on 127.0.0.1:$PGPORT"

# 2. The instances: the first makes the certificates (naming localhost and 127.0.0.1), the
#    others use the same ones, so a client sees one server whichever instance it reaches.
BACKENDS=""
INSTANCE_PORTS=()
METRICS_PORTS=()
for i in $(seq 1 "$INSTANCES"); do
    # Port 0: each instance binds a free port and says which in its log; the same for its
    # metrics listener (GET /metrics, GET /health), which only 127.0.0.1 reaches.
    "$BIN/snapshare-server" --listen "127.0.0.1:0" --metrics "127.0.0.1:0" --database "$DATABASE" --data "$WORK/instance-$i" \
        --certs "$WORK/certs" --log-level info ${CLUSTER_NO_QUOTAS:+"${NO_QUOTAS[@]}"} >"$WORK/instance-$i.log" 2>&1 &
    PIDS+=("$!")
    port=$(listening_port "$WORK/instance-$i.log" "$WORK/instance-$i.log" "${PIDS[-1]}")
    # Printed after the listening line, in the same block of start-up lines.
    metrics=$(sed -n 's|^  metrics: http://127\.0\.0\.1:\([0-9]*\)/metrics$|\1|p' "$WORK/instance-$i.log")
    [[ -n "$metrics" ]] || { say "instance $i did not say its metrics port:"; cat "$WORK/instance-$i.log" >&2; exit 1; }
    INSTANCE_PORTS+=("$port")
    METRICS_PORTS+=("$metrics")
    say "instance $i (pid ${PIDS[-1]}) on 127.0.0.1:$port, metrics on 127.0.0.1:$metrics"
    BACKENDS+="    server instance-$i 127.0.0.1:$port check port $metrics inter 200ms fall 1 rise 2"$'\n'
done

# 3. HAProxy: TCP, TLS passed through; an instance whose GET /health does not answer 200 (dead,
#    or its store unavailable) leaves the rotation within 200 ms, and a connection that meets it
#    meanwhile is sent to another (every retry may pick another server).
#    Sources/TestSupport/HAProxy.swift runs the same settings for the failover test.
cat >"$WORK/haproxy.cfg" <<CONF
global
    # Within the usual descriptor limit (each connection holds two: client and instance).
    maxconn 8000
defaults
    mode tcp
    timeout connect 200ms
    retries 3
    option redispatch 1
    timeout client 1h
    timeout server 1h
frontend snapshare
    bind 127.0.0.1:$PORT
    default_backend instances
backend instances
    balance leastconn
    option httpchk GET /health
    http-check expect status 200
$BACKENDS
CONF
haproxy -f "$WORK/haproxy.cfg" -db >"$WORK/haproxy.log" 2>&1 &
PIDS+=("$!")
sleep 0.5
kill -0 "${PIDS[-1]}" 2>/dev/null || { say "haproxy did not start:"; cat "$WORK/haproxy.log" >&2; exit 1; }

if [[ -n "$ENV_FILE" ]]; then
    # Written whole, then moved into place: a reader that finds the file finds all of it. Every
    # value is quoted for the shell (a temporary folder may have spaces in its name).
    CLUSTER_CA=$WORK/certs/ca.pem CLUSTER_DATABASE=$DATABASE CLUSTER_PGPORT=$PGPORT
    CLUSTER_INSTANCE_PIDS=("${PIDS[@]:0:$INSTANCES}") CLUSTER_INSTANCE_PORTS=("${INSTANCE_PORTS[@]}")
    CLUSTER_METRICS_PORTS=("${METRICS_PORTS[@]}")
    declare -p CLUSTER_CA CLUSTER_DATABASE CLUSTER_PGPORT CLUSTER_INSTANCE_PIDS CLUSTER_INSTANCE_PORTS CLUSTER_METRICS_PORTS >"$ENV_FILE.partial"
    mv "$ENV_FILE.partial" "$ENV_FILE"
fi

cat <<EOF
Snapshare on $INSTANCES instances behind 127.0.0.1:$PORT, sharing PostgreSQL ($DATABASE).
  students:   snapshare --server localhost:$PORT --ca $WORK/certs/ca.pem
  an admin:   $BIN/snapshare-server admin add NAME --password-stdin --database $DATABASE
  metrics:    $(for m in "${METRICS_PORTS[@]}"; do printf 'http://127.0.0.1:%s/metrics ' "$m"; done)
  logs:       $WORK/instance-*.log, $WORK/haproxy.log
  pids:       ${PIDS[*]} (kill one instance to see the others carry on)
Ctrl-C stops everything.
EOF
wait
