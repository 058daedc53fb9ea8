#!/usr/bin/env bash
# Fetches libzstd for a foreign Debian architecture into build/cross/<arch>/root (apt-get download +
# dpkg -x: no multiarch install, so no version lock-step with the host's libzstd is needed).
# usage: cross_sysroot.sh DEBARCH OUTDIR   (exit 0 when OUTDIR/root has libzstd.a)
set -eu
arch=$1; out=$2
[ -f "$out/root/usr/lib/$(ls "$out/root/usr/lib" 2>/dev/null | head -1)/libzstd.a" ] 2>/dev/null && exit 0
mkdir -p "$out/debs"
cd "$out/debs"
apt-get download "libzstd1:$arch" "libzstd-dev:$arch" >/dev/null 2>&1 || exit 1
for d in *.deb; do dpkg -x "$d" ../root; done
ls ../root/usr/lib/*/libzstd.a >/dev/null
