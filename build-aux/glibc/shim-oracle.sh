#!/bin/sh
# shim-oracle.sh: make check-glibc-shim.  glibc's own tests as an oracle
# for the shim: glibc 2.31's unpatched build (make check-glibc's
# baseline, which registers no rseq) runs its make check in each of
# GL_ORACLE_SUBDIRS twice, once with a preloaded library that does
# nothing and once with the shim preloaded (built in the bullseye
# chroot, where it registers every thread: shim-owned), both through
# glibc's test-wrapper-env and test-wrapper-env-only, so that the two
# runs differ only in what the shim does.  A test that fails with the
# shim but not without it is rerun alone both ways; one that still
# does is a failure of the shim, and the run fails, unless
# build-aux/glibc/shim-known-bullseye lists it with the reason the
# manual gives; a listed test that no longer differs fails the run too.
# Writes build/glibc-shim/report.md.
#
# Environment:
#   GL_ORACLE_SUBDIRS  glibc subdirectories (default: elf nptl misc
#                      signal posix rt)
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
here=$(dirname "$0")
. "$here/common.sh"
[ "$GLIBC_SUITE" = bullseye ] && [ "$GLIBC_ARCH" = x86_64 ] ||
  gl_die "make check-glibc-shim runs glibc 2.31's tests on this machine (GLIBC_SUITE=bullseye GLIBC_ARCH=x86_64), not $GLIBC_SUITE/$GLIBC_ARCH"
t0=$(date +%s)
subdirs=${GL_ORACLE_SUBDIRS:-elf nptl misc signal posix rt}
out=$GL_TOP/build/glibc-shim
rm -rf "$out" && mkdir -p "$out"
"$here/deps.sh"
gl_chroot
gl_unpack
src=$GL_WORK/$GL_UPSTREAM
build=$GL_WORK/build-base
gl_base_build "$GL_CACHE/baseline/$GL_SOURCE_VERSION-$(gl_toolchain_hash)"

# The shim, built in the chroot against bullseye's glibc 2.31, and a
# library of the same kind that does nothing.
w=$GL_WORK/shim-oracle
rm -rf "$GL_ROOT$w" && mkdir -p "$GL_ROOT$w/src"
sh "$GL_TOP/build-aux/tree-files" "$GL_TOP" | (cd "$GL_TOP" && tar --null -T - -cf -) |
  tar -xf - -C "$GL_ROOT$w/src"
printf 'int rc_oracle_noop;\n' > "$GL_ROOT$w/noop.c"
# Registered when __rseq_size is published and non-zero and the kernel
# keeps cpu_id in the area at __rseq_offset from the thread pointer.
cat > "$GL_ROOT$w/probe.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>

int
main (void)
{
  const unsigned int *size = dlsym (RTLD_DEFAULT, "__rseq_size");
  const ptrdiff_t *offset = dlsym (RTLD_DEFAULT, "__rseq_offset");
  char *tp;
  __asm__ ("mov %%fs:0, %0" : "=r" (tp));
  if (size == NULL || offset == NULL || *size == 0)
    puts ("unregistered");
  else
    puts (*(volatile int *) (tp + *offset + 4) >= 0 ? "registered" : "unregistered");
  return 0;
}
EOF
gl_in_chroot /bin/sh -c 'cd "$1/src" && ./configure && make -j"$2" all &&
    gcc -shared -fPIC -o "$1/noop.so" "$1/noop.c" &&
    gcc -O2 -o "$1/probe" "$1/probe.c" -ldl' sh "$w" "$GL_JOBS" \
  > "$out/shim-build.log" 2>&1 || gl_die "the shim did not build in the chroot (see $out/shim-build.log)"
shim=$w/src/build/librseq-compat.so.1
noop=$w/noop.so
[ -e "$GL_ROOT$shim" ] || gl_die "no $shim after make all (see $out/shim-build.log)"

# Without this the oracle would prove nothing: through the unpatched
# build, the probe must see the shim register, and not without it.
probe() {
  gl_in_chroot /bin/sh -c 'cd "$1" && env LD_PRELOAD="$3" "$2/testrun.sh" ./probe' sh \
    "$w" "$build" "$1" 2>&1
}
with=$(probe "$shim") without=$(probe "$noop")
echo "probe through testrun.sh: with the shim $with, with the empty library $without" > "$out/probe.txt"
[ "$with" = registered ] && [ "$without" = unregistered ] ||
  gl_die "the probe through the unpatched build said '$with' with the shim and '$without' without it, not registered and unregistered"

# run LABEL PRELOAD: make check in every subdirectory, results kept
# under $out/LABEL.
run() {
  mkdir -p "$out/$1"
  for d in $subdirs; do
    gl_log "check-glibc-shim: $1: make check in $d"
    s=$(date +%s)
    gl_in_chroot /bin/sh -c '{ find "$2/$3" -maxdepth 1 \( -name "*.out" \
        -o -name "*.test-result" -o -name subdir-tests.sum \) -delete 2>/dev/null || :; }
      cd "$1" && $5 make -r -j"$4" objdir="$2" subdir="$3" -C "$3" ..=../ \
        test-wrapper-env="env LD_PRELOAD=$6" test-wrapper-env-only="env -i LD_PRELOAD=$6" check' \
      sh "$src" "$build" "$d" "$GL_CHECK_JOBS" "$GL_DEFAULT_SIGNALS" "$2" > "$out/$1/check-$d.log" 2>&1 || :
    echo "$(( $(date +%s) - s ))" > "$out/$1/$d.seconds"
    cp "$GL_ROOT$build/$d/subdir-tests.sum" "$out/$1/$d.sum" 2>/dev/null ||
      : > "$out/$1/$d.sum"
  done
}
run without "$noop"
run with "$shim"

# alone TEST PRELOAD: TEST run alone with PRELOAD; true if it passed.
alone() {
  gl_in_chroot /bin/sh -c 'cd "$1" && $4 make -r objdir="$2" test t="$3" \
      test-wrapper-env="env LD_PRELOAD=$5" test-wrapper-env-only="env -i LD_PRELOAD=$5"' sh \
    "$src" "$build" "$1" "$GL_DEFAULT_SIGNALS" "$2" > "$out/alone.log" 2>&1 &&
    grep -q '^PASS: ' "$out/alone.log"
}
status=0
: > "$out/differences"
: > "$out/own-preload"
{
  echo "# make check-glibc-shim: glibc $GL_SOURCE_VERSION's tests (unpatched build) without and with the shim"
  echo
  echo "$(cat "$out/probe.txt"). Both runs preload a library through glibc's"
  echo "test-wrapper-env and test-wrapper-env-only: one that does nothing, or the shim."
  echo
  echo "| subdir | tests | PASS without / with | FAIL without / with | UNSUPPORTED without / with | seconds without / with |"
  echo "|---|---|---|---|---|---|"
} > "$out/report.md"
for d in $subdirs; do
  set -- $(gl_counts "$out/without/$d.sum"); a_p=$2 a_f=$4 a_u=$6
  set -- $(gl_counts "$out/with/$d.sum"); b_p=$2 b_f=$4 b_u=$6
  n=$(grep -c '^[A-Z]*: ' "$out/with/$d.sum" || :)
  echo "| $d | $n | $a_p / $b_p | $a_f / $b_f | $a_u / $b_u | $(cat "$out/without/$d.seconds") / $(cat "$out/with/$d.seconds") |" >> "$out/report.md"
  [ "$n" -gt 0 ] || { echo "$d: no test results with the shim" >> "$out/differences"; status=1; }
  # Every test whose result with the shim is not the one without it.
  sed -n 's/^\([A-Z]*\): //p' "$out/with/$d.sum" | while read -r t; do
    a=$(grep -E "^[A-Z]+: $t\$" "$out/without/$d.sum" | cut -d: -f1)
    b=$(grep -E "^[A-Z]+: $t\$" "$out/with/$d.sum" | cut -d: -f1)
    [ "$a" != "$b" ] || continue
    [ "$b" != PASS ] || { echo "$t: ${a:-missing} without, PASS with (not held against the shim)"; continue; }
    if alone "$t" "$shim" && alone "$t" "$shim" && alone "$t" "$shim"; then
      echo "$t: ${a:-missing} without, $b with; PASS alone with the shim three times (load)"
    elif alone "$t" "$noop"; then
      echo "$t: ${a:-missing} without, $b with; alone: FAIL with the shim, PASS without: THE SHIM"
    else
      echo "$t: ${a:-missing} without, $b with; alone: FAIL both ways (not the shim)"
    fi
  done >> "$out/differences"
  # A test one run reported and the other did not.
  for r in without with; do sed -n 's/^[A-Z]*: //p' "$out/$r/$d.sum" | LC_ALL=C sort > "$out/$r/$d.names"; done
  LC_ALL=C comm -3 "$out/without/$d.names" "$out/with/$d.names" | sed 's/^\t//' | while read -r t; do
    echo "$t: reported by one run only: THE SHIM"
  done >> "$out/differences"
  # Tests whose own environment sets LD_PRELOAD run without either
  # library: named, so that nobody takes them for checked.
  awk -f "$here/own-preload.awk" "$GL_ROOT$src/$d/Makefile" | sed "s|^|$d/|" >> "$out/own-preload"
done
# Known differences: listed, with the manual's reason.
known=$GL_TOP/build-aux/glibc/shim-known-$GLIBC_SUITE
while IFS='	' read -r t why; do
  case $t in ''|'#'*) continue ;; esac
  case " $subdirs " in *" ${t%%/*} "*) ;; *) continue ;; esac
  if grep -q "^$t: .*: THE SHIM\$" "$out/differences"; then
    sed -i "s|^\($t: .*: THE SHIM\)\$|\1 (known: $why)|" "$out/differences"
  else
    echo "$t: listed in ${known#"$GL_TOP"/} but not different with the shim: take it out" >> "$out/differences"
    status=1
  fi
done < "$known"
grep -q ': THE SHIM$' "$out/differences" && status=1
{
  echo
  echo "## Tests whose result differs"
  echo
  if [ -s "$out/differences" ]; then sed 's/^/    /' "$out/differences"; else echo "None."; fi
  echo
  echo "Run without the shim in both runs, their own environment setting LD_PRELOAD:"
  echo
  if [ -s "$out/own-preload" ]; then sed 's/^/    /' "$out/own-preload"; else echo "    none"; fi
  echo
  echo "make check-glibc-shim: $(( $(date +%s) - t0 )) s this run."
} >> "$out/report.md"
cat "$out/report.md"
if [ $status -eq 0 ]; then gl_log "make check-glibc-shim: PASS ($out/report.md)"
else gl_log "make check-glibc-shim: FAIL ($out/report.md)"; fi
exit $status
