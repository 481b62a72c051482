#!/usr/bin/env bash
# package-test.sh: builds the packages (scripts/package.sh) and runs what they hold as a student
# and an instructor would, where nothing of the build is within reach: inside a private mount
# namespace (unshare -m) with empty folders mounted over the Swift toolchain (/opt/swift), the
# build folder and the sources. From the unpacked client and server .deb files, and again from
# the tarball: start the server, register two students, post a bundled sample, list it, open it
# once (a second open is refused with exit 6), draw the world map, and print --version.
#
# With --debootstrap, also installs the .deb files with apt-get into a fresh Debian root made by
# debootstrap (minbase) and runs the same flow there (a few minutes more, needs the mirror).
#
# Needs root (for unshare and mount). .ci/run runs it after the test suite.
set -euo pipefail
SCRIPT=package-test
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"
[[ "${1:-}" == "--help" ]] && { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0; }
DEBOOTSTRAP=false
[[ "${1:-}" == "--debootstrap" ]] && DEBOOTSTRAP=true
[[ $(id -u) -eq 0 ]] || die "needs root (unshare -m and mount)"

"$ROOT/scripts/package.sh"
VERSION=$(sed -n 's/.*public static let version = "\(.*\)".*/\1/p' "$ROOT/Sources/Shared/Release/Release.swift")
# The protocol versions this build speaks, as --version says them ("1-4"), read from the code.
PROTOCOLS=$(sed -n 's/.*public static let versions: ClosedRange<UInt16> = \([0-9]*\)\.\.\.\([0-9]*\).*/\1-\2/p' "$ROOT/Sources/Shared/Wire/WireMessage.swift")
[[ -n "$PROTOCOLS" ]] || die "cannot read the protocol versions from Sources/Shared/Wire/WireMessage.swift"
ARCH=$(dpkg --print-architecture)
WORK=$(mktemp -d /tmp/snapshare-package-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

mkdir -p "$WORK/deb" "$WORK/tar"
dpkg-deb -x "$ROOT/dist/snapshare_${VERSION}_${ARCH}.deb" "$WORK/deb"
dpkg-deb -x "$ROOT/dist/snapshare-server_${VERSION}_${ARCH}.deb" "$WORK/deb"
tar -C "$WORK/tar" -xzf "$ROOT/dist/snapshare-$VERSION-linux-$ARCH.tar.gz"

# Each package's documents: the README's guides are there, and every relative link in them
# leads to a file the package holds.
for docs in "$WORK/deb/usr/share/doc/snapshare" "$WORK/deb/usr/share/doc/snapshare-server" "$WORK/tar/snapshare-$VERSION"; do
    [[ -f "$docs/README.md" && -f "$docs/docs/student-guide.md" ]] || die "no README and guides in $docs"
    for document in "$docs"/README.md "$docs"/CHANGELOG.md "$docs"/docs/*.md; do
        for target in $(grep -o '](\([^)#[:space:]]*\)' "$document" | sed 's/^](//' | grep -v '://' | sort -u); do
            [[ -e "$(dirname "$document")/$target" ]] || die "${document#"$WORK"/} links $target, which the package does not hold"
        done
    done
done

# flow BIN_DIR LABEL: the class's flow with the programs in BIN_DIR; run inside the namespace.
# Written out as its own script, so the namespace's shell runs it with nothing of ours exported.
cat >"$WORK/flow.sh" <<'FLOW'
#!/bin/sh
set -eu
bin=$1; label=$2; work=$3; protocols=$4
fail() { echo "package-test ($label): $*" >&2; exit 1; }
run=$work/run-$label
mkdir -p "$run"
"$bin/snapshare" --version | grep -q "(protocol $protocols," || fail "snapshare --version: $("$bin/snapshare" --version 2>&1)"
"$bin/snapshare-server" --version | grep -q "^snapshare-server " || fail "snapshare-server --version"
"$bin/snapshare-server" --listen 127.0.0.1:0 --data "$run/data" --certs "$run/certs" >"$run/server.out" 2>"$run/server.err" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
port=
for _ in $(seq 300); do
    port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\) (TLS.*/\1/p' "$run/server.out" "$run/server.err" 2>/dev/null | head -1)
    [ -n "$port" ] && break
    kill -0 $server 2>/dev/null || break
    sleep 0.1
done
[ -n "$port" ] || fail "the server did not start: $(cat "$run/server.err")"
as() { # as HOME COMMAND...
    home=$1; shift
    SNAPSHARE_HOME="$run/$home" SNAPSHARE_SERVER="127.0.0.1:$port" SNAPSHARE_CA="$run/certs/ca.pem" "$bin/snapshare" "$@"
}
echo "ann's password" | as ann register ann --password-stdin >/dev/null || fail "register ann"
echo "bob's password" | as bob register bob --password-stdin >/dev/null || fail "register bob"
as ann post --feed Memes --sample 1 --json >"$run/posted.json" || fail "post a sample"
id=$(sed -n 's/.*"id":\([0-9]*\).*/\1/p' "$run/posted.json")
[ -n "$id" ] || fail "no snap id in $(cat "$run/posted.json")"
as bob feed Memes --json | grep -q "\"id\":$id" || fail "bob's feed lacks snap $id"
as bob view "$id" >"$run/view.out" || fail "bob's one view of snap $id"
[ -s "$run/view.out" ] || fail "the opened snap drew nothing"
set +e
as bob view "$id" >/dev/null 2>"$run/view-again.err"
again=$?
set -e
[ $again -eq 6 ] || fail "a second view exited $again, not 6: $(cat "$run/view-again.err")"
as bob map --center 48.85,2.35 --zoom 2 >"$run/map.out" || fail "the map: $(cat "$run/map.out")"
[ "$(wc -l <"$run/map.out")" -gt 10 ] || fail "the map drew $(wc -l <"$run/map.out") lines"
echo "package-test ($label): register, post a sample, list, open once, map: all fine"
FLOW
chmod +x "$WORK/flow.sh"

# hidden COMMAND...: runs COMMAND where the toolchain, the build and the sources are out of reach.
hidden() {
    unshare -m sh -c '
        set -e
        mount --make-rprivate /
        for folder in /opt/swift "$0/.build" "$0/Sources"; do
            [ -d "$folder" ] && mount -t tmpfs -o ro,size=1m empty "$folder"
        done
        command -v swift >/dev/null 2>&1 && { echo "swift is still reachable" >&2; exit 1; }
        exec "$@"' "$ROOT" "$@"
}

say "the unpacked .deb files, toolchain and build hidden"
hidden env -i PATH=/usr/bin:/bin HOME="$WORK" "$WORK/flow.sh" "$WORK/deb/usr/bin" deb "$WORK" "$PROTOCOLS"
say "the unpacked tarball, toolchain and build hidden"
hidden env -i PATH=/usr/bin:/bin HOME="$WORK" "$WORK/flow.sh" "$WORK/tar/snapshare-$VERSION/bin" tarball "$WORK" "$PROTOCOLS"

if $DEBOOTSTRAP; then
    install_missing debootstrap:debootstrap
    chroot_root="$WORK/debian"
    say "a clean Debian root (debootstrap minbase), then apt-get install of the packages"
    if ! debootstrap --variant=minbase bookworm "$chroot_root" http://deb.debian.org/debian >"$WORK/debootstrap.log" 2>&1; then
        # The mirror out of reach is not the packages' fault: said loudly, and the rest stands.
        tail -5 "$WORK/debootstrap.log" >&2
        say "SKIPPED the clean Debian root: debootstrap could not make it (see above)"
        say "all fine (without the clean Debian root)"
        exit 0
    fi
    cp "$ROOT"/dist/snapshare*_"$VERSION"_"$ARCH".deb "$chroot_root/tmp/"
    cp "$WORK/flow.sh" "$chroot_root/tmp/flow.sh"
    mount -t proc proc "$chroot_root/proc"
    trap 'umount "$chroot_root/proc" 2>/dev/null || true; rm -rf "$WORK"' EXIT
    chroot "$chroot_root" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /tmp/snapshare_${VERSION}_${ARCH}.deb /tmp/snapshare-server_${VERSION}_${ARCH}.deb" >&2
    chroot "$chroot_root" id snapshare >/dev/null || die "the server package made no snapshare user"
    [[ $(stat -c %a "$chroot_root/var/lib/snapshare") == 700 ]] || die "/var/lib/snapshare is not 0700"
    [[ -f "$chroot_root/lib/systemd/system/snapshare-server.service" ]] || die "the server package installed no systemd unit"
    [[ $(chroot "$chroot_root" stat -c '%a %U:%G' /etc/snapshare/snapshare-server.conf) == "640 root:snapshare" ]] \
        || die "/etc/snapshare/snapshare-server.conf is not 0640 root:snapshare"
    grep -qx /etc/snapshare/snapshare-server.conf "$chroot_root/var/lib/dpkg/info/snapshare-server.conffiles" \
        || die "the settings file is not a conffile"
    # The installed settings, as the service reads them, make a server that starts.
    chroot "$chroot_root" runuser -u snapshare -- sh -c 'snapshare-server --config /etc/snapshare/snapshare-server.conf --listen 127.0.0.1:0 & pid=$!; sleep 3; kill -0 $pid && kill $pid' \
        >/dev/null || die "snapshare-server did not start as the service would (--config /etc/snapshare/snapshare-server.conf)"
    chroot "$chroot_root" env -i PATH=/usr/bin:/bin HOME=/tmp /tmp/flow.sh /usr/bin debian /tmp "$PROTOCOLS"
fi
say "all fine"
