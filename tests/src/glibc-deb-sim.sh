#!/bin/sh
# glibc-deb-sim.sh TOP TMP: make glibc-deb's checks and its preinst
# snippet on stand-ins in TMP (tests/rseq.build/glibc-deb.exp compares
# what this prints; each section is "== NAME", the exit status, then
# the output).
#   deb-check good/old: build-aux/glibc/deb-check.sh on a stand-in
#     libc6 whose symbols file and Provides are what deb-inner.sh writes
#     (the template and the virtual package), and on one as it was
#     before (a plain version bound): the first must pass, the second
#     fail each of its checks.
#   preinst: build-aux/glibc/nobiarch.preinst with a dpkg-query stand-in
#     listing what a machine has installed.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
top=$1 tmp=$2
rm -rf "$tmp"
mkdir -p "$tmp"
ver=2.31-13+deb11u11+rseq1

# A symbols file shaped like the built libc6's: the loader's entries
# with the wildcard lines of debian/symbols.wildcards (GLIBC_2.35 on
# the template ABI selects), and libc.so.6's.
symbols() {
  for lib in ld-linux-x86-64.so.2 libc.so.6; do
    echo "$lib libc6 #MINVER#"
    echo "| libc6 (>> 2.31), libc6 (<< 2.32)"
    [ -z "$1" ] || echo "| libc6 (>= 2.35) | libc6-rseq-abi"
    echo " GLIBC_2.2.5@GLIBC_2.2.5 2.2.5"
    echo " GLIBC_PRIVATE@GLIBC_PRIVATE 0 1"
    [ "$lib" = libc.so.6 ] || {
      echo " GLIBC_2.35@GLIBC_2.35 $ver${1:+ $1}"
      echo " __rseq_offset@GLIBC_2.35 $ver${1:+ $1}"
    }
  done
}
for kind in good old; do
  d=$tmp/$kind && mkdir -p "$d/pkg/DEBIAN"
  if [ $kind = good ]; then symbols 2; prov="Provides: libc6-rseq-abi"; else symbols ""; prov=; fi \
    > "$d/pkg/DEBIAN/symbols"
  printf 'Package: libc6\nVersion: %s\nArchitecture: amd64\nMaintainer: x <x@example.org>\nMulti-Arch: same\n%sDescription: stand-in\n' \
    "$ver" "${prov:+$prov
}" > "$d/pkg/DEBIAN/control"
  dpkg-deb --build --root-owner-group "$d/pkg" "$d/libc6_${ver}_amd64.deb" > /dev/null
  : > "$d/report.md"
  "$top/build-aux/glibc/deb-check.sh" "$d" "$d/report.md" > /dev/null 2>&1
  rc=$?
  echo "== deb-check $kind"
  echo "status $rc"
  grep -E '^    (ok|FAIL): ' "$d/report.md" | sed 's/ (status [0-9]*)//'
done

# The preinst snippet: "$1", then dpkg-query's lines.  Run as Debian's
# build writes it into the packages: debian/rules.d/debhelper.mk
# replaces these words in every debhelper.in file, and the library
# templates' loop these.
p=$tmp/preinst && mkdir -p "$p/bin"
sed -e 's#GLIBC_VERSION#2.31#g' -e 's#CURRENT_VER#2.31-13#g' -e 's#BUILD-TREE#build-tree#g' \
    -e 's#LIBC#libc6#g' -e 's#DEB_HOST_ARCH#amd64#g' -e 's#TMPDIR#debian/tmp-libc#g' \
    -e 's#RTLDDIR#/lib64#g' -e 's#SLIBDIR#/lib/x86_64-linux-gnu#g' -e 's#LIBDIR#/usr/lib/x86_64-linux-gnu#g' \
    "$top/build-aux/glibc/nobiarch.preinst" > "$p/snippet"
preinst() {
  printf '%s' "$2" > "$p/installed"
  cat > "$p/bin/dpkg-query" <<EOF
#!/bin/sh
cat "$p/installed"
EOF
  chmod +x "$p/bin/dpkg-query"
  echo "== preinst $3"
  PATH=$p/bin:$PATH DPKG_MAINTSCRIPT_ARCH=amd64 DPKG_MAINTSCRIPT_PACKAGE=libc6 sh -c ". '$p/snippet'" sh "$1" 2>&1
  echo "status $?"
}
preinst upgrade 'libc6:amd64 ii 
libc6-i386:amd64 ii 
libc6-x32:amd64 un 
' biarch
preinst install 'libc6:amd64 ii 
libc6:i386 iU 
' foreign
preinst upgrade 'libc6:amd64 ii 
libc6-i386:amd64 rc 
libc6:i386 un 
libc6-x32:amd64 un 
' neither
preinst abort-upgrade 'libc6:amd64 ii 
libc6-i386:amd64 ii 
' abort
