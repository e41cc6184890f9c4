# Shared settings for make glibc, make glibc-patch and make check-glibc
# (sourced, not run).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later

# mx_in_chroot, RSEQ_COMPAT_CACHE, rc_mirror: the same cache root and
# namespace handling as make check-matrix.
. "$(dirname "$0")/../matrix/common.sh"

GL_TOP=$(cd "$(dirname "$0")/../.." && pwd)

gl_log() { printf 'glibc: %s\n' "$*" >&2; }
gl_die() { printf 'glibc: %s\n' "$*" >&2; exit 1; }

# gl_chroot: make or bring up to date the build chroot (chroot.sh), then
# hold it (a shared lock on descriptor 4, to this script's end): the
# glibc tiers share one chroot per suite, and chroot.sh updates it
# only when no script holds it.
gl_chroot() {
  "$GL_TOP/build-aux/glibc/chroot.sh" || exit 1
  mx_hold_chroot "glibc-$GLIBC_SUITE" 4
}

# GLIBC_SUITE picks the series: bullseye, glibc 2.31 (nptl/patches,
# the backport), or bookworm, glibc 2.36 (nptl/patches-2.36, the
# extensible registration).  Each has its own chroot, caches and output
# directory.  GL_SOURCE_VERSION is the source package the series is
# written against; a chroot that offers another version is refused
# (see chroot.sh).
GLIBC_SUITE=${GLIBC_SUITE:-bullseye}
case $GLIBC_SUITE in
  bullseye)
    GL_SOURCE_VERSION=${GL_SOURCE_VERSION:-2.31-13+deb11u11}
    GL_UPSTREAM=glibc-2.31
    GL_SERIES=nptl/patches
    GL_ABILIST=abi-list/glibc-2.31-ld.abilist
    GL_GCC=10
    GL_NAME=glibc
    ;;
  bookworm)
    GL_SOURCE_VERSION=${GL_SOURCE_VERSION:-2.36-9+deb12u14}
    GL_UPSTREAM=glibc-2.36
    GL_SERIES=nptl/patches-2.36
    # 2.36 already exports __rseq_*: nothing is added to any abilist.
    GL_ABILIST=
    GL_GCC=12
    GL_NAME=glibc-bookworm
    ;;
  *)
    gl_die "GLIBC_SUITE=$GLIBC_SUITE: no series for it (bullseye: glibc 2.31, bookworm: glibc 2.36)" ;;
esac

# GLIBC_ARCH picks the machine the glibc is built for: x86_64, the
# host's, or aarch64, s390x, i686 or x32, cross-built (bullseye only:
# its chroot has the cross toolchain of
# build-aux/glibc/debian-packages-ARCH; GL_TRIPLET names it).
# aarch64 is run in make check-aarch64's guests; s390x, which has no
# rseq signature in the series and so must behave as glibc 2.31 always
# did, is run here under QEMU's user-mode emulator (GL_QEMU_USER, in the
# chroot); i686 (the i386 flavour of Debian's amd64 package) is run
# here natively (GL_RUN_NATIVE), where this x86-64 kernel registers it;
# x32 (its other flavour) is built and checked against its abilist, its
# tests built, not run: Debian's kernels, this one too, run no x32
# programs.
# A cross build shares the suite's chroot and its pristine tree, but has
# its own patched tree and build directory there (GL_SRC, GL_BUILD) and
# its own caches, logs and output (GL_NAME), so neither build touches
# the other's.
GLIBC_ARCH=${GLIBC_ARCH:-x86_64}
GL_CHROOT_NAME=$GL_NAME
GL_CROSS_PACKAGES=
GL_QEMU_USER=
# Set where the series has no rseq signature (s390x): under the
# emulator the tests must then make no rseq system call at all.
GL_QEMU_NO_RSEQ=
GL_RUN_NATIVE=
GL_TRIPLET=$GLIBC_ARCH-linux-gnu
case $GLIBC_ARCH in
  x86_64) GL_SUFFIX= ;;
  aarch64|s390x|i686|x32)
    case $GLIBC_SUITE/$GLIBC_ARCH in
      bullseye/*|bookworm/aarch64) ;;
      *) gl_die "GLIBC_ARCH=$GLIBC_ARCH is not supported yet for GLIBC_SUITE=$GLIBC_SUITE: the bullseye series (glibc 2.31) is cross-built, the bookworm one (glibc 2.36) only for aarch64" ;;
    esac
    GL_SUFFIX=-$GLIBC_ARCH
    GL_NAME=$GL_NAME$GL_SUFFIX
    GL_CROSS_PACKAGES=build-aux/glibc/debian-packages-$GLIBC_ARCH
    case $GLIBC_SUITE/$GLIBC_ARCH in
      # gcc-12's cross toolchain, and the tests run under qemu-user
      # (which answers rseq with ENOSYS): their alignment checks, which
      # need no registration, are what the run is for.
      bookworm/aarch64)
        GL_CROSS_PACKAGES=build-aux/glibc/debian-packages-aarch64-bookworm
        GL_QEMU_USER=/usr/bin/qemu-aarch64-static ;;
    esac
    case $GLIBC_ARCH in
      s390x) GL_QEMU_USER=/usr/bin/qemu-s390x-static GL_QEMU_NO_RSEQ=1 ;;
      i686) GL_RUN_NATIVE=1 ;;
      x32) GL_TRIPLET=x86_64-linux-gnux32 ;;
    esac
    ;;
  *)
    gl_die "GLIBC_ARCH=$GLIBC_ARCH: unknown (x86_64, the default, aarch64, s390x, i686 or x32)" ;;
esac
GL_CACHE=$RSEQ_COMPAT_CACHE/$GL_NAME
GL_ROOT=$RSEQ_COMPAT_CACHE/$GL_CHROOT_NAME/chroot
GL_OUT=$GL_TOP/build/$GL_NAME
GL_LOG=$RSEQ_COMPAT_CACHE/log/$GL_NAME
# Inside the chroot.
GL_WORK=/rcg
GL_SRC=$GL_WORK/src-patched$GL_SUFFIX
GL_BUILD=$GL_WORK/build-patched$GL_SUFFIX
GL_STAGE=$GL_WORK/stage$GL_SUFFIX
GL_JOBS=${GL_JOBS:-2}
# glibc's make check: most of nptl's tests sleep or wait, so more jobs
# than cores halve its time (220 s at 2, 132 s at 4 on 2 cores); at 8
# a timed test (nptl/tst-mutex10) ran out of time.
GL_CHECK_JOBS=${GL_CHECK_JOBS:-4}

# gl_in_chroot CMD...: run CMD in the glibc build chroot.
gl_in_chroot() { mx_in_chroot "$GL_ROOT" "$@"; }

# Our files that are copied into the glibc tree unchanged, at the same
# paths (all of them use rseq-layout.h for sizes and lengths).  2.36
# has registration code, headers and tests of its own: the series
# patches its code, keeps its headers, and replaces its tests with ours
# (GL_REPLACED), which check glibc 2.41's semantics.
gl_own_files() {
  (cd "$GL_TOP" && case $GLIBC_SUITE in
     bullseye) ls sysdeps/unix/sysv/linux/rseq-layout.h \
         sysdeps/unix/sysv/linux/rseq-area.h \
         sysdeps/unix/sysv/linux/rseq-internal.h \
         sysdeps/unix/sysv/linux/rseq-signals.h \
         sysdeps/unix/sysv/linux/dl-rseq.c \
         sysdeps/unix/sysv/linux/rseq-ldso-guard.c \
         sysdeps/unix/sysv/linux/sys/rseq.h \
         sysdeps/unix/sysv/linux/bits/rseq.h \
         sysdeps/unix/sysv/linux/x86/bits/rseq.h \
         sysdeps/unix/sysv/linux/aarch64/bits/rseq.h \
         sysdeps/unix/sysv/linux/tst-rseq.h \
         sysdeps/unix/sysv/linux/tst-rseq*.c ;;
     bookworm) ls sysdeps/unix/sysv/linux/rseq-layout.h \
         sysdeps/unix/sysv/linux/rseq-area.h \
         sysdeps/unix/sysv/linux/tst-rseq.h \
         sysdeps/unix/sysv/linux/tst-rseq*.c ;;
   esac)
}
case $GLIBC_SUITE in
  bookworm) GL_REPLACED="sysdeps/unix/sysv/linux/tst-rseq.h
    sysdeps/unix/sysv/linux/tst-rseq.c sysdeps/unix/sysv/linux/tst-rseq-nptl.c
    sysdeps/unix/sysv/linux/tst-rseq-disable.c" ;;
  *) GL_REPLACED= ;;
esac

# gl_change_hash: identifies the change (our files, the patches, the
# abilist additions) and the glibc-side scripts.
gl_change_hash() {
  (cd "$GL_TOP" && { gl_own_files; echo $GL_SERIES/series;
     sed "s|^|$GL_SERIES/|" $GL_SERIES/series;
     echo $GL_ABILIST; ls build-aux/glibc/*;
     echo tests/src/create-trap.c tests/src/rtest.h tests/src/seccomp-filter.h \
       tests/src/sigblock-refused.c tests/src/sigmask-report.c \
       tests/src/window-sigblock.c tests/src/window-gap.c \
       tests/src/window-blockfail.c tests/src/sigmask-emulated.c \
       tests/src/window-jmpblk.c tests/src/window-early.c \
       tests/src/sigsys-context.h tests/src/seccomp-abi.h;
     ls shim/arch/x86_64/*; } |
     LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)
}

# gl_toolchain_hash: the chroot's toolchain and source package versions.
gl_toolchain_hash() {
  gl_in_chroot dpkg-query -W -f '${Package} ${Version}\n' gcc-$GL_GCC g++-$GL_GCC \
    binutils libc6-dev linux-libc-dev glibc-source make gawk bison python3 |
    sha256sum | cut -c1-16
}

# Both builds (baseline and patched) are configured alike.
GL_CONFIGURE="--prefix=/usr --disable-werror --disable-profile --enable-kernel=3.2"
# A cross build names its compilers (the versioned ones: the unversioned
# names belong to another package) and builds against the target's
# kernel headers (linux-libc-dev-ARCH-cross).
[ "$GLIBC_ARCH" = x86_64 ] ||
  GL_CONFIGURE="$GL_CONFIGURE --build=x86_64-linux-gnu --host=$GL_TRIPLET \
    --with-headers=/usr/$GL_TRIPLET/include \
    CC=$GL_TRIPLET-gcc-$GL_GCC CXX=$GL_TRIPLET-g++-$GL_GCC"
GL_CFLAGS="-O2 -pipe"

# gl_unpack: the pristine tree at $GL_ROOT$GL_WORK/$GL_UPSTREAM, unpacked
# once per source version.
gl_unpack() {
  _p=$GL_ROOT$GL_WORK/$GL_UPSTREAM
  if [ "$(cat "$_p/.rc-version" 2>/dev/null)" != "$GL_SOURCE_VERSION" ]; then
    gl_log "unpacking glibc-source $GL_SOURCE_VERSION"
    rm -rf "$_p"
    mkdir -p "$GL_ROOT$GL_WORK"
    tar -xJf "$GL_ROOT/usr/src/glibc/$GL_UPSTREAM.tar.xz" -C "$GL_ROOT$GL_WORK" ||
      gl_die "cannot unpack $GL_ROOT/usr/src/glibc/$GL_UPSTREAM.tar.xz"
    echo "$GL_SOURCE_VERSION" > "$_p/.rc-version"
  fi
}

# gl_build SRC BUILD LOG: configure (once) and make in the chroot; SRC
# and BUILD are paths inside it.
gl_build() {
  gl_in_chroot /bin/sh -c '
    set -e
    src=$1 build=$2 conf=$3 cflags=$4 jobs=$5
    mkdir -p "$build"
    cd "$build"
    if [ "$(cat .rc-configure 2>/dev/null)" != "$conf $cflags" ]; then
      "$src/configure" $conf CFLAGS="$cflags"
      echo "$conf $cflags" > .rc-configure
    fi
    make -j"$jobs"' sh "$1" "$2" "$GL_CONFIGURE" "$GL_CFLAGS" "$GL_JOBS" >"$3" 2>&1
}

# gl_base_build BASE: the unpatched build of the pristine tree at
# $GL_WORK/build-base, made once per source version and toolchain; BASE
# ($GL_CACHE/baseline/KEY) records that it is complete and how long it
# took.  make check-glibc's baseline and make check-glibc-shim share it.
gl_base_build() {
  if [ ! -e "$1/.complete" ] || [ ! -e "$GL_ROOT$GL_WORK/build-base/libc.so" ]; then
    gl_log "baseline: building unpatched glibc-source $GL_SOURCE_VERSION (log: $GL_LOG-build-base.log)"
    _s=$(date +%s)
    rm -rf "$1" "$GL_ROOT$GL_WORK/build-base"
    gl_build "$GL_WORK/$GL_UPSTREAM" "$GL_WORK/build-base" "$GL_LOG-build-base.log" ||
      gl_die "the unpatched glibc does not build; see $GL_LOG-build-base.log"
    mkdir -p "$1"
    echo "$(( $(date +%s) - _s ))" > "$1/build.seconds"
    touch "$1/.complete"
  fi
}

# gl_stage LOG: the patched build installed with DESTDIR into
# $GL_ROOT$GL_STAGE, again whenever a shared object of the build changed
# since; says why on stdout and fails if it cannot.
gl_stage() {
  [ -e "$GL_ROOT$GL_BUILD/libc.so" ] ||
    { echo "no patched build at $GL_ROOT$GL_BUILD (make glibc)"; return 1; }
  if [ ! -e "$GL_ROOT$GL_STAGE/.rc-stamp" ] ||
     [ -n "$(find "$GL_ROOT$GL_BUILD" -maxdepth 2 -name '*.so' -newer "$GL_ROOT$GL_STAGE/.rc-stamp" | head -n 1)" ]; then
    rm -rf "$GL_ROOT$GL_STAGE"
    # MAKEINFO=: skips the manual, whose sources Debian's glibc-source
    # does not ship.
    gl_in_chroot /bin/sh -c 'cd "$1" && make -r install DESTDIR="$2" MAKEINFO=:' sh \
      "$GL_BUILD" "$GL_STAGE" > "$1" 2>&1 ||
      { echo "make install DESTDIR=$GL_STAGE failed (see $1)"; return 1; }
    touch "$GL_ROOT$GL_STAGE/.rc-stamp"
  fi
}

# gl_check_abi REPORT LOG: glibc's make check-abi on the patched build
# (every library's exported symbols against its abilist, ld.so's with
# the series' GLIBC_2.35 entries); appends each library's result line
# and the verdict to REPORT, fails if it did.
gl_check_abi() {
  _abi=PASS
  gl_in_chroot /bin/sh -c 'cd "$1" && make -r objdir="$2" check-abi' sh "$GL_SRC" "$GL_BUILD" \
    > "$2" 2>&1 || _abi=FAIL
  grep -h -E '^[A-Z]+: ' "$GL_ROOT$GL_BUILD"/*/check-abi-*.test-result | sed 's/^/    /' >> "$1"
  echo "    make check-abi: $_abi" >> "$1"
  [ $_abi = PASS ]
}

# gl_series_files SERIES: the files the series touches (glibc paths).
gl_series_files() {
  sed -n 's|^+++ b/\([^	]*\).*|\1|p' "$1"/*.patch | LC_ALL=C sort -u
}

# gl_patched_tree SERIES TREE: make TREE (a host path) the pristine tree
# with SERIES applied.  TREE is made once by copying; afterwards only
# files whose content changes are rewritten, so that an incremental
# rebuild recompiles only what the change touches.
gl_patched_tree() {
  _series=$1 _tree=$2
  _pristine=$GL_ROOT$GL_WORK/$GL_UPSTREAM
  _scratch=$GL_CACHE/scratch
  rm -rf "$_scratch"
  mkdir -p "$_scratch"
  # The series applied to pristine copies of the files it touches.
  for f in $(gl_series_files "$_series"); do
    if [ -e "$_pristine/$f" ]; then
      mkdir -p "$_scratch/$(dirname "$f")"
      cp -p "$_pristine/$f" "$_scratch/$f"
    fi
  done
  while read -r p; do
    patch -p1 -s --fuzz=0 --no-backup-if-mismatch -d "$_scratch" < "$_series/$p" ||
      gl_die "patch $p does not apply to glibc-source $GL_SOURCE_VERSION"
  done < "$_series/series"
  if [ "$(cat "$_tree/.rc-version" 2>/dev/null)" != "$GL_SOURCE_VERSION" ]; then
    rm -rf "$_tree"
    cp -a "$_pristine" "$_tree"
    : > "$_tree/.rc-touched"
  fi
  # Files an earlier series touched and this one does not: pristine
  # again, with a new mtime (with the pristine one, older than what the
  # build made from the series' version, make kept that: 100th review,
  # N6, syscalls.list and sysd-syscalls).  Files the series created go,
  # and gl_drop_stale_deps drops what the build made of them.
  for f in $(cat "$_tree/.rc-touched"); do
    [ -e "$_scratch/$f" ] && continue
    if [ -e "$_pristine/$f" ]; then
      cp "$_pristine/$f" "$_tree/$f"
    else
      rm -f "$_tree/$f"
      echo "$f" >> "$_tree/.rc-removed"
    fi
  done
  (cd "$_scratch" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) > "$_tree/.rc-touched"
  for f in $(cat "$_tree/.rc-touched"); do
    if ! cmp -s "$_scratch/$f" "$_tree/$f"; then
      mkdir -p "$_tree/$(dirname "$f")"
      cp "$_scratch/$f" "$_tree/$f"
    fi
  done
  rm -rf "$_scratch"
}

# gl_drop_stale_deps TREE BUILD: a file that an earlier series created
# and this one does not is gone from TREE (gl_patched_tree), but make's
# dependency files in BUILD still name it, and make stopped ("No rule to
# make target ../sysdeps/unix/sysv/linux/sigaltstack.c"): those and
# their objects go, to be made again.
gl_drop_stale_deps() {
  [ -s "$1/.rc-removed" ] || return 0
  for f in $(LC_ALL=C sort -u "$1/.rc-removed"); do
    [ -d "$2" ] || break
    grep -rlF --include='*.d' "/$f" "$2" | while read -r d; do
      rm -f "$d" "${d%.d}"
    done
  done
  rm -f "$1/.rc-removed"
}

# The glibc test subset make check-glibc runs, baseline and patched.
GL_SUBDIRS=${GL_SUBDIRS:-elf nptl misc}
# The backport's own tests (subdir/name): each must PASS.
GL_OWN_TESTS="misc/tst-rseq misc/tst-rseq-static misc/tst-rseq-disable
  misc/tst-rseq-disable-static nptl/tst-rseq-nptl nptl/tst-rseq-nptl-static"

# gl_default_signals CMD...: CMD with SIGINT and SIGQUIT at their default
# action.  A shell ignores both in what it starts in the background, the
# ignoring is inherited across exec, and glibc tests that kill a child
# with SIGINT (nptl/tst-signal1) then fail when make check-glibc was
# started with & or from such a job.
GL_DEFAULT_SIGNALS="perl -e \$SIG{INT}=\$SIG{QUIT}=q(DEFAULT);exec(@ARGV)or(die(qq(\$ARGV[0]:\$!)))"

# gl_subdir_check SRC BUILD SUBDIR LOG: glibc's make check for one
# subdirectory (failures do not stop it); leaves BUILD/SUBDIR/subdir-tests.sum.
# Earlier results are removed first: glibc's make check only reruns a
# test whose program changed.
gl_subdir_check() {
  gl_in_chroot /bin/sh -c '{ find "$2/$3" -maxdepth 1 \( -name "*.out" \
      -o -name "*.test-result" \) -delete 2>/dev/null || :; }
    cd "$1" && $5 make -r -j"$4" objdir="$2" subdir="$3" \
      -C "$3" ..=../ check' sh "$1" "$2" "$3" "$GL_CHECK_JOBS" "$GL_DEFAULT_SIGNALS" >"$4" 2>&1 || :
}

# gl_test_names SRC BUILD SUBDIR: every test glibc's make check in
# SUBDIR reports (SUBDIR/NAME, one a line), from the command that
# writes its subdir-tests.sum, read off make -n.
gl_test_names() {
  gl_in_chroot /bin/sh -c 'cd "$1" && make -r -n objdir="$2" subdir="$3" \
      -C "$3" ..=../ check' sh "$1" "$2" "$3" 2>&1 |
    awk -v d="$3" '/merge-test-results\.sh -s/ { f = 1; next }
      f && /subdir-tests\.sum/ { exit }
      f { for (i = 1; i <= NF; i++) if ($i != "\\") print d "/" $i }' |
    grep . || return 1
}

# gl_run_test SRC BUILD TEST LOG: TEST (SUBDIR/NAME) run alone, as
# glibc's make test t=TEST does; true if it passed.
gl_run_test() {
  mkdir -p "$(dirname "$4")"
  gl_in_chroot /bin/sh -c 'cd "$1" && $4 make -r objdir="$2" test t="$3"' sh \
    "$1" "$2" "$3" "$GL_DEFAULT_SIGNALS" > "$4" 2>&1 && grep -q '^PASS: ' "$4"
}

# gl_keep_failures SUM BUILD DEST: copy the output of every test SUM
# reports as failing (BUILD is the build directory inside the chroot)
# to DEST, which nothing later overwrites: a rerun writes the test's
# .out again.
gl_keep_failures() {
  grep '^FAIL: ' "$1" 2>/dev/null | sed 's/^FAIL: //' | while read -r _t; do
    mkdir -p "$3/$(dirname "$_t")"
    for _e in out test-result; do
      [ -e "$GL_ROOT$2/$_t.$_e" ] && cp "$GL_ROOT$2/$_t.$_e" "$3/$_t.$_e"
    done
  done
}

# gl_counts SUM: "PASS n FAIL n UNSUPPORTED n XFAIL n XPASS n".
gl_counts() {
  for r in PASS FAIL UNSUPPORTED XFAIL XPASS; do
    printf '%s %s ' "$r" "$(grep -c "^$r: " "$1" 2>/dev/null || :)"
  done
  echo
}
