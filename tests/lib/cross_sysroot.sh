#!/usr/bin/env bash
# Fetches libzstd and libcrypto (OpenSSL: the CLI's SHA-256 and signing) for a foreign Debian
# architecture into build/cross/<arch>/root (apt-get download + dpkg -x: no multiarch install, so
# no version lock-step with the host's libraries is needed).
# usage: cross_sysroot.sh DEBARCH OUTDIR   (exit 0 when OUTDIR/root has libzstd.a and libcrypto.a)
set -eu
arch=$1; out=$2
have() { ls "$out"/root/usr/lib/*/libzstd.a "$out"/root/usr/lib/*/libcrypto.a >/dev/null 2>&1; }
have && exit 0
mkdir -p "$out/debs"
cd "$out/debs"
apt-get download "libzstd1:$arch" "libzstd-dev:$arch" "libssl3:$arch" "libssl-dev:$arch" >/dev/null 2>&1 || exit 1
for d in *.deb; do dpkg -x "$d" ../root; done
have
