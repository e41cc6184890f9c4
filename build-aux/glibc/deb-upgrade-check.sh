#!/bin/sh
# deb-upgrade-check.sh DIR REPORT: make glibc-deb's packages (in DIR,
# built with -Pnobiarch) installed with one dpkg -i over the stock ones
# of make glibc's bullseye chroot, each case in a throwaway overlay of
# it: with libc6-i386 installed, and with libc6:i386, each package's
# preinst must refuse before it is unpacked, naming the package that
# needs a libc6 of its own version, so that every package stays at the
# stock version; with neither, all must install.  Appends to REPORT;
# exit status 0 only if all three hold.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
. "$(dirname "$0")/common.sh"
dir=$1 report=$2
log=$RSEQ_COMPAT_CACHE/log/glibc-deb-upgrade.log
mkdir -p "$(dirname "$log")"
: > "$log"
tmp=$(mktemp -d "$RSEQ_COMPAT_CACHE/deb-upgrade.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# The packages an upgrade of a running system takes (debug symbols and
# locales-all aside).
pkgs="libc6 libc6-dev libc-bin libc-dev-bin"
mkdir -p "$tmp/debs"
for p in $pkgs; do
  cp "$dir/${p}_"*_amd64.deb "$tmp/debs/" || exit 1
done
version=$(dpkg-deb -f "$dir"/libc6_*_amd64.deb Version)
stock=$(gl_in_chroot dpkg-query -W -f '${Version}' libc6)

# attempt CASE SETUP: in a fresh overlay, SETUP (shell, in the chroot),
# then dpkg -i of the set; the log gets "status N" and each package's
# "version status".
attempt() {
  rm -rf "$tmp/o" && mkdir -p "$tmp/o/upper/debs" "$tmp/o/work" "$tmp/o/root" &&
    cp "$tmp"/debs/*.deb "$tmp/o/upper/debs/" || return 1
  echo "== $1" >> "$log"
  unshare --mount --propagation private sh -c '
    . "$(dirname "$0")/../matrix/common.sh"
    o=$1 lower=$2 setup=$3 pkgs=$4
    mount -t overlay overlay -o "lowerdir=$lower,upperdir=$o/upper,workdir=$o/work" "$o/root" || exit 125
    mx_in_chroot "$o/root" /bin/sh -c "
      $setup || echo \"setup failed\"
      dpkg -i /debs/*.deb; echo \"status \$?\"
      for p in $pkgs; do echo \"now \$p \$(dpkg-query -W -f \"\\\${Version} \\\${db:Status-Abbrev}\" \$p:amd64)\"; done
    "
  ' "$0" "$tmp/o" "$GL_ROOT" "$2" "$pkgs" >> "$log" 2>&1
}
# The chroot has libc6-i386 (the i686 build's multilib toolchain): each
# case installs its blocker alone.
apt='DEBIAN_FRONTEND=noninteractive apt-get -y -q'
purge="$apt purge libc6-i386 libc6-x32 >/dev/null"
attempt libc6-i386 "$apt update >/dev/null && $apt install libc6-i386 >/dev/null"
attempt libc6:i386 "$purge && dpkg --add-architecture i386 && $apt update >/dev/null && $apt install libc6:i386 >/dev/null"
attempt neither "$purge"

status=0
{
  echo
  echo "## Upgrading the bullseye chroot (libc6 $stock) to these packages"
  echo
  echo "One dpkg -i of $pkgs, each case in a fresh overlay of the chroot:"
  echo
} >> "$report"
# check CASE WANT-STATUS WANT-VERSION WANT-TEXT
check() {
  part=$(sed -n "/^== $1\$/,/^== /p" "$log")
  got=$(echo "$part" | sed -n 's/^status //p')
  why=
  case $part in *"setup failed"*) why="its setup failed" ;; esac
  [ "$got" = "$2" ] || why="${why:+$why; }dpkg -i exits ${got:-?}"
  for p in $pkgs; do
    now=$(echo "$part" | sed -n "s/^now $p //p")
    case $now in "$3 ii"*) ;; *) why="${why:+$why; }$p is '$now'" ;; esac
  done
  [ -z "$4" ] || case $part in *"$4"*) ;; *) why="${why:+$why; }no \"$4\"" ;; esac
  if [ -z "$why" ]; then
    echo "    ok: $1 installed: dpkg -i exits $got, $pkgs at $3"
  else
    echo "    FAIL: $1 installed: $why (want status $2, all at $3; see $log)"
    return 1
  fi
}
check libc6-i386 1 "$stock" "their own version: libc6-i386:amd64." >> "$report" || status=1
check libc6:i386 1 "$stock" "their own version: libc6:i386." >> "$report" || status=1
check neither 0 "$version" "" >> "$report" || status=1
{
  echo
  echo "    What libc6's preinst said with libc6-i386 installed:"
  sed -n '/^== libc6-i386$/,/^== /p' "$log" | grep -m1 -A4 '^libc6 (rseq-compat)' | sed 's/^/      /'
} >> "$report"
exit $status
