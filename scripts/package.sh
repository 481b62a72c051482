#!/usr/bin/env bash
# package.sh: the packages a student or an instructor installs, in dist/:
#   snapshare_<version>_<arch>.deb         the client (snapshare)
#   snapshare-server_<version>_<arch>.deb  the server (snapshare-server, a `snapshare` system user,
#                                          /var/lib/snapshare, /etc/snapshare/snapshare-server.conf,
#                                          the systemd unit snapshare-server.service)
#   snapshare-<version>-linux-<arch>.tar.gz  both programs for other Linux systems: bin/ and
#                                          share/snapshare/ side by side, run from wherever unpacked
# The binaries are release builds with the Swift standard library and Foundation linked in
# statically, so they need only the Debian runtime libraries the .deb files name in Depends
# (never a -dev package, never the Swift toolchain). Their data files are found next to the
# program (../share/snapshare), in /usr/share/snapshare, or in the folder named by
# SNAPSHARE_RESOURCES.
#
# Needs root when it has to install what the build needs (libcurl4-openssl-dev, dpkg-dev).
# Usage: scripts/package.sh            (about 4 minutes on 2 cores from clean, most of it the release build)
set -euo pipefail
# A failure inside $(…) must stop the script too (a stage or Depends line half made).
shopt -s inherit_errexit
SCRIPT=package
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"
[[ "${1:-}" == "--help" ]] && { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0; }
export PATH="/opt/swift/usr/bin:$PATH"
install_missing dpkg-deb:dpkg-dev

VERSION=$(sed -n 's/.*public static let version = "\(.*\)".*/\1/p' "$ROOT/Sources/Shared/Release/Release.swift")
[[ -n "$VERSION" ]] || die "could not read the version from Sources/Shared/Release/Release.swift"
ARCH=$(dpkg --print-architecture)
DIST="$ROOT/dist"
SCRATCH="$ROOT/.build/package"
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT

say "building snapshare $VERSION (release, Swift runtime linked in) in $SCRATCH"
# Foundation's URL loading (the server's Flickr source), linked in statically, links libcurl:
# building needs its -dev package (the built server needs only libcurl4).
if ! dpkg -s libcurl4-openssl-dev >/dev/null 2>&1; then
    say "installing libcurl4-openssl-dev (to link the server)"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcurl4-openssl-dev >&2
fi
for product in snapshare snapshare-server; do
    (cd "$ROOT" && swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product "$product" >&2)
done
BIN=$(cd "$ROOT" && swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --show-bin-path)
for program in snapshare snapshare-server; do
    [[ -x "$BIN/$program" ]] || die "$BIN/$program was not built"
    # Packages ship without the debug information (80 MB of it); the build folder keeps it.
    strip --strip-unneeded -o "$BIN/$program.stripped" "$BIN/$program"
    if ldd "$BIN/$program" | grep -q -e /opt/swift -e libswift -e libFoundation; then
        die "$program still links the Swift runtime dynamically: $(ldd "$BIN/$program" | grep -e swift -e Foundation)"
    fi
done

# runtime_depends PROGRAM...: the Debian packages that hold the shared libraries the programs
# name as NEEDED (what they link directly; those libraries bring their own dependencies), as a
# Depends line, each once.
runtime_depends() {
    local libraries packages program soname owner spelling
    libraries=$(for program in "$@"; do
        for soname in $(objdump -p "$BIN/$program" | awk '/NEEDED/ { print $2 }'); do
            ldd "$BIN/$program" | awk -v name="$soname" '$1 == name && $3 ~ /^\// { print $3 }'
        done
    done | sort -u)
    packages=$(for library in $libraries; do
        # dpkg records a library under one of its spellings (/lib or /usr/lib on merged-/usr
        # systems, through a link or not): try each before giving up.
        owner=
        for spelling in "$(readlink -f "$library")" "$library" "${library#/usr}" "/usr${library}"; do
            owner=$(dpkg -S "$spelling" 2>/dev/null | head -1) && [[ -n "$owner" ]] && break
        done
        [[ -n "$owner" ]] || die "no Debian package owns $library, which the programs load"
        echo "$owner"
    done | cut -d: -f1 | sort -u)
    if grep -q -e '-dev$' -e swift <<<"$packages"; then die "a runtime dependency is a build package: $packages"; fi
    tr '\n' ' ' <<<"$packages" | sed 's/ $//; s/ /, /g'
}

# stage_resources PART BUNDLE DEST: copies the built resources of PART (client or server) from
# SwiftPM's bundle to DEST/PART.
stage_resources() {
    mkdir -p "$3/$1"
    cp -R "$BIN/$2.resources/." "$3/$1/"
    local marker
    marker=$([[ $1 == client ]] && echo world-110m.geojson || echo places.csv)
    [[ -f "$3/$1/$marker" ]] || die "the $1's data files did not reach $3/$1 (no $marker)"
}

# stage_docs DEST: the README, the changelog and docs/ (the guides the README links, the other
# documents and their pictures) into DEST, laid out as in the repository, so every link in them
# leads to a file of the package.
stage_docs() {
    install -m 0644 "$ROOT/README.md" "$ROOT/CHANGELOG.md" "$1/"
    install -d "$1/docs/images"
    install -m 0644 "$ROOT"/docs/*.md "$1/docs/"
    install -m 0644 "$ROOT"/docs/images/* "$1/docs/images/"
}

control() { # control PACKAGE DEPENDS DESCRIPTION-LINES...
    local package=$1 depends=$2 suggests=""
    shift 2
    # The client's camera (post --camera) runs FFmpeg; nothing else needs it.
    if [[ $package == snapshare ]]; then suggests=$'\nSuggests: ffmpeg'; fi
    cat <<EOF
Package: $package
Version: $VERSION
Architecture: $ARCH
Maintainer: Snapshare maintainers <maintainers@snapshare.invalid>
Depends: $depends${suggests}
Section: net
Priority: optional
Homepage: https://github.com/snapshare/snapshare
Description: $1
EOF
    shift
    for line in "$@"; do echo " $line"; done
}

mkdir -p "$DIST"
rm -f "$DIST"/snapshare*_"$VERSION"_"$ARCH".deb "$DIST"/snapshare-"$VERSION"-linux-"$ARCH".tar.gz

# stage PACKAGE PROGRAM PART BUNDLE: the tree of one .deb (the program, its data files, the
# docs); prints its folder.
stage() {
    local root="$STAGE/$1"
    mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/doc/$1"
    install -m 0755 "$BIN/$2.stripped" "$root/usr/bin/$2"
    stage_resources "$3" "$4" "$root/usr/share/snapshare"
    stage_docs "$root/usr/share/doc/$1"
    echo "$root"
}

# build_deb ROOT PACKAGE DEPENDS DESCRIPTION-LINES...: the control file, then the .deb.
build_deb() {
    local root=$1 package=$2
    shift 2
    control "$package" "$@" >"$root/DEBIAN/control"
    dpkg-deb --root-owner-group --build "$root" "$DIST/${package}_${VERSION}_${ARCH}.deb" >&2
}

client=$(stage snapshare snapshare client Snapshare_Client)
client_depends=$(runtime_depends snapshare)
build_deb "$client" snapshare "$client_depends" \
    "Snapshare's terminal client: share class photos, each opened once" \
    "Post a picture to the class's feed, open each snap once (the server enforces it)," \
    "drop map pins with photo albums, keep virtual vacations and favorite movies, in" \
    "commands or a full-screen terminal app. Talks to snapshare-server over TLS 1.3."

server=$(stage snapshare-server snapshare-server server Snapshare_Server)
mkdir -p "$server/etc/snapshare" "$server/lib/systemd/system"
install -m 0644 "$ROOT/contrib/snapshare-server.service" "$server/lib/systemd/system/snapshare-server.service"
install -m 0640 "$ROOT/contrib/snapshare-server.conf" "$server/etc/snapshare/snapshare-server.conf"
# An upgrade keeps the instructor's edits to the settings (dpkg asks when both changed).
echo /etc/snapshare/snapshare-server.conf >"$server/DEBIAN/conffiles"
cat >"$server/DEBIAN/postinst" <<'EOF'
#!/bin/sh
# The server's own user, its private state folder, and its settings readable by it alone.
set -e
if [ "$1" = configure ]; then
    if ! getent passwd snapshare >/dev/null; then
        adduser --system --group --home /var/lib/snapshare --gecos "Snapshare server" snapshare >/dev/null
    fi
    install -d -m 0700 -o snapshare -g snapshare /var/lib/snapshare
    chown root:snapshare /etc/snapshare/snapshare-server.conf
    chmod 0640 /etc/snapshare/snapshare-server.conf
    if [ -d /run/systemd/system ]; then
        systemctl daemon-reload >/dev/null 2>&1 || true
        echo "snapshare-server: edit /etc/snapshare/snapshare-server.conf, then: systemctl enable --now snapshare-server"
    fi
fi
exit 0
EOF
chmod 0755 "$server/DEBIAN/postinst"
server_depends=$(runtime_depends snapshare-server)
build_deb "$server" snapshare-server "$server_depends, adduser" \
    "Snapshare's class photo-sharing server" \
    "One server per class: feeds of snaps each opened once per viewer, pins with photo" \
    "albums, vacations and movies, over TLS 1.3 and a documented binary protocol, stored in" \
    "SQLite (or PostgreSQL for several instances)."

# The tarball: bin/ and share/ side by side, as the programs look for them.
tree="$STAGE/snapshare-$VERSION"
mkdir -p "$tree/bin" "$tree/share/snapshare"
install -m 0755 "$BIN/snapshare.stripped" "$tree/bin/snapshare"
install -m 0755 "$BIN/snapshare-server.stripped" "$tree/bin/snapshare-server"
stage_resources client Snapshare_Client "$tree/share/snapshare"
stage_resources server Snapshare_Server "$tree/share/snapshare"
stage_docs "$tree"
tar -C "$STAGE" --owner=0 --group=0 -czf "$DIST/snapshare-$VERSION-linux-$ARCH.tar.gz" "snapshare-$VERSION"

say "wrote:"
ls -l "$DIST"/snapshare*"$VERSION"* >&2
