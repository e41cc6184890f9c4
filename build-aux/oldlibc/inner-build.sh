#!/bin/sh
# inner-build.sh NAME TARBALL PATCHDIR PREFIX OUT: runs inside the
# bullseye chroot.  Unpacks the C library NAME from TARBALL, applies
# PATCHDIR/*.patch in name order, builds it for PREFIX (its own prefix:
# the loader, the libraries and ld.so.cache all live there, so that it
# is the system C library of every program linked against it) and
# writes the installed tree to OUT (a .tar.gz of PREFIX).
#
# Besides the C library, the tree gets what a distribution's base
# system would put next to it: gcc's libgcc_s.so.1 (glibc's
# pthread_cancel and pthread_exit load it by name, and the loader only
# searches PREFIX), and, for glibc, the kernel's headers and bin/rc-cc,
# the compiler driver for programs of this C library (musl installs its
# own, bin/musl-gcc).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
name=$1 tarball=$2 patchdir=$3 prefix=$4 out=$5
work=/rco/build/$name
jobs=$(nproc 2>/dev/null || echo 2)
rm -rf "$work"
mkdir -p "$work/src" "$work/obj" "$work/inst"
tar -C "$work/src" --strip-components=1 -xf "$tarball"
for p in "$patchdir"/*.patch; do
  [ -e "$p" ] || continue
  echo "applying $(basename "$p"): $(sed -n '1s/^Reason: //p' "$p")"
  patch -d "$work/src" -p1 -s --no-backup-if-mismatch < "$p"
done

# No -g: CI builds every one of these cold, and debug information adds
# build time and cache size that no test uses (valgrind's redirections
# in the loader need its symbol table only, which stays).
case $name in
  glibc-*)
    cd "$work/obj"
    # Before 2.26 glibc links its own programs with the start files of
    # a non-PIE executable and cannot tell a compiler that makes PIE by
    # default (Debian's gcc) to stop: it must be told here.
    cc=gcc
    case $name in glibc-2.1[0-9]|glibc-2.2[0-5]) cc="gcc -fno-pie -no-pie" ;; esac
    # No C++: the chroot's c++ is clang's, without a C++ library, which
    # glibc 2.26's configure takes for one and then fails on.
    CC=$cc CXX=false CFLAGS="-O2 -pipe" "$work/src/configure" --prefix="$prefix" \
      --disable-werror --disable-profile --enable-kernel=3.2 \
      --without-selinux
    make -j"$jobs"
    make install install_root="$work/inst"
    inc=$work/inst$prefix/include
    cp -a /usr/include/linux /usr/include/asm-generic "$inc/"
    cp -a /usr/include/x86_64-linux-gnu/asm "$inc/asm"
    # -nostdinc: nothing of Debian's glibc headers may leak in; the
    # dynamic linker only where a program is linked (ld would give a
    # shared library an interpreter too).
    cat > "$work/inst$prefix/bin/rc-cc" <<WRAP
#!/bin/sh
# gcc for programs of $name in $prefix (made by build-aux/oldlibc).
p=$prefix
inc=\$(gcc -print-file-name=include)
interp=-Wl,--dynamic-linker=\$p/lib/ld-linux-x86-64.so.2
for a in "\$@"; do
  case \$a in -c|-E|-S|-shared|-M|-MM) interp= ;; esac
done
exec gcc -nostdinc -isystem "\$inc" -isystem "\$inc-fixed" -isystem "\$p/include" \\
  -B"\$p/lib/" -L"\$p/lib" -Wl,-rpath-link,"\$p/lib" \$interp "\$@"
WRAP
    chmod 755 "$work/inst$prefix/bin/rc-cc"
    ;;
  musl-*)
    cd "$work/src"
    CFLAGS="-O2 -pipe" ./configure --prefix="$prefix" --syslibdir="$prefix/lib"
    make -j"$jobs"
    make install DESTDIR="$work/inst"
    ;;
  *) echo "inner-build.sh: unknown C library $name" >&2; exit 1 ;;
esac
cp -L "$(gcc -print-file-name=libgcc_s.so.1)" "$work/inst$prefix/lib/"
tar -C "$work/inst" -czf "$out.partial" .
mv "$out.partial" "$out"
rm -rf "$work"
