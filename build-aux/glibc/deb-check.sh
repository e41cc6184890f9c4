#!/bin/sh
# deb-check.sh DIR REPORT: what make glibc-deb's packages (in DIR)
# promise a program that uses __rseq_offset, checked with dpkg's own
# tools on this machine.  dpkg-shlibdeps, given the built libc6's
# symbols file, must make such a library depend on the virtual package
# the built libc6 provides (or on a glibc of 2.35 or later); then, in a
# scratch dpkg database, dpkg must install a package with that
# dependency next to the built libc6 and next to bookworm's 2.36, and
# refuse it next to a stock bullseye libc6 of a later version
# (2.31-13+deb11u12, which sorts above ours); and apt, offered that
# stock update, must not take it while the program stays installed.
# The stand-in packages carry the control fields that matter (version,
# Provides, Depends) and no files.  Appends to REPORT; exit status 0 only if all hold.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
dir=$1 report=$2
abi=libc6-rseq-abi
status=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
say() { echo "$*" >> "$report"; }
bad() { say "    FAIL: $*"; status=1; }
good() { say "    ok: $*"; }

deb=$(ls "$dir"/libc6_*_amd64.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || { say "deb-check: no libc6 package in $dir"; exit 1; }
version=$(dpkg-deb -f "$deb" Version)
provides=$(dpkg-deb -f "$deb" Provides)
say
say "## What a program using __rseq_offset depends on"
say
case ", $provides," in
  *", $abi,"*) good "libc6 $version provides $abi" ;;
  *) bad "libc6 $version does not provide $abi (Provides: $provides)" ;;
esac

# A scratch database whose libc6 owns the host's loader and libc, with
# the built symbols file: dpkg-shlibdeps finds them on this machine.
db=$tmp/db
mkdir -p "$db/info" "$db/updates"
echo 1 > "$db/info/format"
: > "$db/available"
dpkg-deb --ctrl-tarfile "$deb" | tar -xOf - ./symbols > "$db/info/libc6:amd64.symbols" ||
  bad "libc6 $version has no symbols file"
# The loader is a stand-in of the same name that defines __rseq_offset
# at GLIBC_2.35, so that the check does not depend on this machine's C
# library having it (glibc 2.31 does not).
for f in ld-linux-x86-64.so.2 libc.so.6; do
  printf '/lib/x86_64-linux-gnu/%s\n/usr/lib/x86_64-linux-gnu/%s\n' "$f" "$f"
done > "$db/info/libc6:amd64.list"
echo "$tmp/p/lib/ld-linux-x86-64.so.2" >> "$db/info/libc6:amd64.list"
printf 'Package: libc6\nStatus: install ok installed\nMaintainer: x\nArchitecture: amd64\nMulti-Arch: same\nVersion: %s\nDescription: x\n\n' \
  "$version" > "$db/status"
mkdir -p "$tmp/p/debian" "$tmp/p/lib"
printf 'Source: rc-uses-rseq\n\nPackage: rc-uses-rseq\nArchitecture: any\n' > "$tmp/p/debian/control"
cat > "$tmp/p/t.c" <<'EOF'
#include <stddef.h>
#include <string.h>
extern const ptrdiff_t __rseq_offset;
size_t f (const char *s) { return strlen (s) + (size_t) __rseq_offset; }
EOF
printf 'const long __rseq_offset;\n' > "$tmp/p/ld.c"
printf 'GLIBC_2.35 { __rseq_offset; };\n' > "$tmp/p/ld.map"
depends=
if (cd "$tmp/p" &&
    gcc -shared -fPIC -Wl,-soname,ld-linux-x86-64.so.2 -Wl,--version-script=ld.map \
      -o lib/ld-linux-x86-64.so.2 ld.c &&
    gcc -shared -fPIC -o librc.so t.c -Llib -l:ld-linux-x86-64.so.2) >> "$tmp/log" 2>&1; then
  depends=$(cd "$tmp/p" && dpkg-shlibdeps --admindir="$db" -l"$tmp/p/lib" -O librc.so 2>> "$tmp/log" |
            sed -n 's/^shlibs:Depends=//p')
fi
say "    dpkg-shlibdeps: Depends: ${depends:-(nothing; $(tail -n 1 "$tmp/log"))}"
case $depends in
  *"| $abi"*) good "the dependency names $abi" ;;
  *) bad "the dependency does not name $abi" ;;
esac

# deb NAME VERSION PROVIDES DEPENDS: a stand-in package without files.
mkdeb() {
  d=$tmp/deb/$1-$2 && mkdir -p "$d/DEBIAN"
  {
    echo "Package: $1"
    echo "Version: $2"
    echo "Architecture: amd64"
    echo "Maintainer: rseq-compat <rseq-compat@lists.example.org>"
    [ "$1" != libc6 ] || echo "Multi-Arch: same"
    [ -z "$3" ] || echo "Provides: $3"
    [ -z "$4" ] || echo "Depends: $4"
    echo "Description: stand-in for deb-check.sh"
  } > "$d/DEBIAN/control"
  dpkg-deb --build --root-owner-group "$d" "$d.deb" > /dev/null
}
mkdeb libc6 "$version" "$provides" ""
mkdeb libc6 2.31-13+deb11u12 "" ""
mkdeb libc6 2.36-9+deb12u13 "" ""
mkdeb rc-uses-rseq 1 "" "$depends"
# try ROOT DEB...: dpkg -i into a scratch root; prints dpkg's status.
try() {
  r=$tmp/root/$1; shift
  mkdir -p "$r/var/lib/dpkg/info" "$r/var/lib/dpkg/updates"
  touch "$r/var/lib/dpkg/status"
  dpkg --root="$r" --force-script-chrootless --log=/dev/null -i "$@" >> "$tmp/log" 2>&1
  echo $?
}
prog=$tmp/deb/rc-uses-rseq-1.deb
if [ -n "$depends" ]; then
  dpkg --compare-versions 2.31-13+deb11u12 gt "$version" &&
    good "dpkg --compare-versions: 2.31-13+deb11u12 sorts above $version"
  for v in "$version:0" 2.36-9+deb12u13:0 2.31-13+deb11u12:1; do
    want=${v##*:} v=${v%:*}
    try "i-$v" "$tmp/deb/libc6-$v.deb" > /dev/null
    got=$(try "i-$v" "$prog")
    if [ "$got" = 0 ] && [ "$want" = 0 ]; then
      good "installs next to libc6 $v"
    elif [ "$got" != 0 ] && [ "$want" = 1 ]; then
      good "dpkg refuses it next to libc6 $v (status $got)"
    else
      bad "with libc6 $v dpkg -i exits $got"
    fi
  done
  # Ours and the program installed, and a stock update of libc6 in the
  # archive: dpkg -i would take it (dpkg leaves reverse dependencies to
  # apt), so the guarantee is apt's.  apt-get -s upgrade must keep libc6
  # back, and dist-upgrade may take the update only by removing the
  # program.
  a=$tmp/apt && mkdir -p "$a/repo" "$a/lists/partial" "$a/cache/archives/partial" "$a/etc/preferences.d" "$a/etc/apt.conf.d"
  cp "$tmp/deb/libc6-2.31-13+deb11u12.deb" "$a/repo/"
  (cd "$a/repo" && dpkg-scanpackages . /dev/null > Packages 2> /dev/null)
  echo "deb [trusted=yes] file:$a/repo ./" > "$a/sources.list"
  {
    printf 'Package: libc6\nStatus: install ok installed\nMaintainer: x\nArchitecture: amd64\nMulti-Arch: same\nVersion: %s\n' "$version"
    [ -z "$provides" ] || printf 'Provides: %s\n' "$provides"
    printf 'Description: x\n\nPackage: rc-uses-rseq\nStatus: install ok installed\nMaintainer: x\nArchitecture: amd64\nVersion: 1\nDepends: %s\nDescription: x\n\n' "$depends"
  } > "$a/status"
  aptg() {
    APT_CONFIG=/dev/null apt-get -q -o Dir::State::status="$a/status" -o Dir::Etc::sourcelist="$a/sources.list" \
      -o Dir::Etc::sourceparts=- -o Dir::Etc::preferences=/dev/null -o Dir::Etc::preferencesparts="$a/etc/preferences.d" \
      -o Dir::Etc::parts="$a/etc/apt.conf.d" -o Dir::State::lists="$a/lists" -o Dir::Cache="$a/cache" \
      -o Dir::State::extended_states="$a/extended_states" -o APT::Architecture=amd64 -o APT::Architectures::=amd64 \
      -o Debug::NoLocking=1 "$@"
  }
  aptg update >> "$tmp/log" 2>&1
  up=$(aptg -s upgrade 2>&1); echo "$up" >> "$tmp/log"
  case $up in
    *"Inst libc6 "*) bad "apt-get upgrade takes stock libc6 2.31-13+deb11u12 under the program" ;;
    *"kept back"*libc6*) good "apt-get upgrade keeps libc6 $version back from stock 2.31-13+deb11u12" ;;
    *) bad "apt-get -s upgrade said neither (see below)" ;;
  esac
  full=$(aptg -s dist-upgrade 2>&1); echo "$full" >> "$tmp/log"
  case $full in
    *"Inst libc6 "*) case $full in
                       *"Remv rc-uses-rseq"*) good "apt-get dist-upgrade takes stock libc6 only by removing the program" ;;
                       *) bad "apt-get dist-upgrade takes stock libc6 and keeps the program" ;;
                     esac ;;
    *"0 upgraded, 0 newly installed, 0 to remove"*) good "apt-get dist-upgrade keeps libc6 $version" ;;
    *) bad "apt-get -s dist-upgrade said neither (see below)" ;;
  esac
fi
[ $status -eq 0 ] || { say; say "    dpkg's output:"; sed 's/^/      /' "$tmp/log" >> "$report"; }
exit $status
