#!/bin/sh
# check-cross.sh: make check-glibc for a cross-built GLIBC_ARCH
# (aarch64, s390x, i686 or x32; check.sh hands over to it).  glibc's own
# make check cannot run a cross build's tests, so it checks what needs
# no machine of that architecture, runs the tests here where this
# machine can (6.), and prepares the rest for one:
#   1. make glibc (the cross build) and the exported quilt series
#      reproducing the tree built (patch.sh verify);
#   2. make check-abi: every library against its abilist, ld.so's with
#      the series' __rseq_* at GLIBC_2.35 (the series' last patch adds
#      them to every Linux ld.abilist), must pass;
#   3. the series' own tests (GL_OWN_TESTS) built, not run: a cross
#      build's run-built-tests is no;
#   4. make install DESTDIR (gl_stage);
#   5. $GL_OUT/guest/: glibc/ (the staged install), tests/SUBDIR/NAME
#      (the test programs), tests.list (guest-tests.sh), run-tests.sh
#      (runs them as glibc's make check would) and overlay.sh (lays
#      glibc/ over a copy of a Debian root).  make check-aarch64 copies
#      aarch64's into its arm64 guests, whose kernels register;
#   6. with GL_QEMU_USER (s390x, which has no rseq signature in the
#      series: nothing is registered, so no kernel is needed; aarch64
#      of the 2.36 series, whose rseq calls the emulator answers with
#      ENOSYS), the tests are run here, under that emulator, and must
#      pass, for s390x with no rseq system call traced; with
#      GL_RUN_NATIVE (i686), they run here natively and every traced
#      registration must succeed.
# Writes $GL_OUT/report.md (build/glibc-ARCH/).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
here=$(dirname "$0")
. "$here/common.sh"
t0=$(date +%s)
out=$GL_OUT
mkdir -p "$out"
# Held to the end: the tests after the build use the chroot too.
gl_chroot
"$here/build.sh"
"$here/patch.sh" "$out/glibc-patch" verify

report=$out/report.md
status=0
{
  echo "# make check-glibc GLIBC_ARCH=$GLIBC_ARCH: glibc-source $GL_SOURCE_VERSION, cross-built"
  echo
  echo "The quilt series (make glibc-patch, $(wc -l < "$out/glibc-patch/patches/series") patches) applied with"
  echo "quilt push -a to a pristine tree gives exactly the tree built."
  echo
  echo "## check-abi"
  echo
} > "$report"
gl_check_abi "$report" "$out/check-abi.log" || status=1

# The own tests' programs, each by its target in its subdirectory
# (glibc's make check in a subdirectory would build all of its tests).
# The support library they link with is made first: it is only built
# for tests.
{
  echo
  echo "## The series' own tests (built, not run)"
  echo
} >> "$report"
subdirs=$(for t in $GL_OWN_TESTS; do echo "${t%%/*}"; done | LC_ALL=C sort -u)
s=$(date +%s)
: > "$out/build-tests.log"
for d in support $subdirs; do
  targets=
  for t in $GL_OWN_TESTS; do
    case $t in "$d"/*) targets="$targets $GL_BUILD/$t" ;; esac
  done
  [ "$d" != support ] || targets=others
  # shellcheck disable=SC2086
  gl_in_chroot /bin/sh -c 'src=$1 build=$2 d=$3 jobs=$4; shift 4
    cd "$src" && make -r -j"$jobs" objdir="$build" subdir="$d" -C "$d" ..=../ "$@"' \
    sh "$GL_SRC" "$GL_BUILD" "$d" "$GL_JOBS" $targets >> "$out/build-tests.log" 2>&1 ||
    { echo "    building $d:$targets failed (see $out/build-tests.log)" >> "$report"; status=1; }
done
for t in $GL_OWN_TESTS; do
  if [ -x "$GL_ROOT$GL_BUILD/$t" ]; then
    echo "    built: $t ($(file -b "$GL_ROOT$GL_BUILD/$t" | cut -d, -f1-2))" >> "$report"
  else
    echo "    MISSING: $t" >> "$report"; status=1
  fi
done
echo "$(( $(date +%s) - s ))" > "$out/build-tests.seconds"

# guest/.
guest=$out/guest
rm -rf "$guest"
mkdir -p "$guest/glibc"
if line=$(gl_stage "$out/stage-install.log"); then
  cp -a "$GL_ROOT$GL_STAGE/." "$guest/glibc/"
  rm -f "$guest/glibc/.rc-stamp"
else
  echo "    $line" >> "$report"; status=1
fi
for t in $GL_OWN_TESTS; do
  mkdir -p "$guest/tests/${t%/*}"
  [ ! -e "$GL_ROOT$GL_BUILD/$t" ] || cp "$GL_ROOT$GL_BUILD/$t" "$guest/tests/$t"
done
# shellcheck disable=SC2086
"$here/guest-tests.sh" "$GL_ROOT$GL_SRC/sysdeps/unix/sysv/linux/Makefile" $GL_OWN_TESTS \
  > "$guest/tests.list"
cp "$here/guest-run-tests.sh" "$guest/run-tests.sh"
cp "$here/overlay.sh" "$guest/overlay.sh"
chmod +x "$guest/run-tests.sh" "$guest/overlay.sh"
# guest_run TITLE NAME [EMULATOR]: a report section TITLE with
# guest/run-tests.sh's results, run here (under EMULATOR if given);
# outputs in $out/NAME-out, its log in $out/NAME-tests.log.
guest_run() {
  { echo; echo "## $1"; echo; } >> "$report"
  _s=$(date +%s)
  RUN_TESTS_EMULATOR=${3:-} RUN_TESTS_OUT=$out/$2-out sh "$guest/run-tests.sh" "$guest" \
    > "$out/$2-tests.log" 2>&1 || status=1
  sed 's/^/    /' "$out/$2-tests.log" >> "$report"
  echo "    ($(( $(date +%s) - _s )) s)" >> "$report"
}
# verdict STATUS OK-TEXT FAIL-TEXT: the report's line for a check whose
# exit status is STATUS; a failed check fails the run.
verdict() {
  if [ "$1" -eq 0 ]; then echo "    $2" >> "$report"
  else echo "    FAIL: $3" >> "$report"; status=1; fi
}
# The staged loader and its library directory, for the traced runs
# below (a dynamic test runs through them, as run-tests.sh runs it).
rtld=$(ls "$guest"/glibc/lib/ld-linux*.so.* "$guest"/glibc/lib/ld64.so.* 2>/dev/null | head -n 1)
[ -z "$rtld" ] || rtld_lib=$(dirname "$(readlink -f "$rtld")")
if [ -n "$GL_RUN_NATIVE" ]; then
  # i686 on this x86-64 kernel: the tests run here and register (x86's
  # signature covers i386), and the trace must show it.  The tests make
  # rseq calls of their own (a second registration that must fail with
  # EBUSY, unregistering and registering again), so what is required
  # is: the signature and a length of 32 or 33 accepted at least twice
  # (a process and a thread), and no call refused for anything but
  # EBUSY (a wrong signature, length or alignment is EINVAL).
  # pthread_cancel and thread exit unwind through libgcc_s, which
  # glibc's own make check copies into its build directory too; this
  # machine has no i386 one, the cross toolchain does.
  gcc_s=$GL_ROOT/usr/$GL_TRIPLET/lib/libgcc_s.so.1
  if [ -e "$gcc_s" ]; then
    cp "$gcc_s" "$guest/glibc/lib/"
  else
    echo "    FAIL: no $gcc_s ($GL_CROSS_PACKAGES installs it)" >> "$report"; status=1
  fi
  guest_run "The series' own tests, run here (IA-32 on this x86-64 kernel, $(uname -r))" native
  for t in nptl/tst-rseq-nptl nptl/tst-rseq-nptl-static; do
    tr=$out/strace-${t##*/}.log
    case $t in
      *-static) set -- "$guest/tests/$t" ;;
      *) set -- "$rtld" --library-path "$rtld_lib" "$guest/tests/$t" ;;
    esac
    env -i PATH=/usr/bin:/bin LC_ALL=C strace -f -qq -e trace=rseq -o "$tr" "$@" > /dev/null 2>&1 ||
      { echo "    FAIL: $t under strace (see $tr)" >> "$report"; status=1; }
    ok=$(grep -Ec 'rseq\(0x[0-9a-f]+, 0x2[01], 0, 0x53053053\) += 0$' "$tr" || :)
    all=$(grep -Ec 'rseq\(' "$tr" || :)
    bad=$(grep -E '= -1 E' "$tr" | grep -vc '= -1 EBUSY' || :)
    [ "$ok" -gt 1 ] && [ "$bad" -eq 0 ]
    verdict $? "$t traced: $ok registrations accepted (of $all rseq calls; none refused but for EBUSY)" \
      "$t traced: $ok registrations accepted, $bad calls refused other than with EBUSY, of $all (see $tr)"
  done
fi
if [ -n "$GL_QEMU_USER" ]; then
  emu=$GL_ROOT$GL_QEMU_USER
  if [ ! -x "$emu" ]; then
    printf '\n## The series'"'"' own tests under %s\n\n    FAIL: no %s (%s installs it)\n' \
      "${GL_QEMU_USER##*/}" "$emu" "$GL_CROSS_PACKAGES" >> "$report"
    status=1
  else
    guest_run "The series' own tests under ${GL_QEMU_USER##*/}" qemu "$emu"
    # "Behaves as before" means no rseq system call at all, not only
    # the values the tests read: the emulator's trace of the dynamic
    # and static tst-rseq-nptl (threads too) must show none, and must
    # show the getcpu calls sched_getcpu makes, or it traced nothing.
    # With a signature (aarch64) the library does call rseq, and the
    # emulator answers ENOSYS; the tests check what follows from that.
    [ -n "$GL_QEMU_NO_RSEQ" ] ||
      echo "    (rseq is answered ENOSYS by the emulator: the tests check their layout, alignment included, and the unregistered state)" >> "$report"
    [ -z "$GL_QEMU_NO_RSEQ" ] ||
    for t in nptl/tst-rseq-nptl nptl/tst-rseq-nptl-static; do
      tr=$out/qemu-strace-${t##*/}.log
      case $t in
        *-static) set -- "$guest/tests/$t" ;;
        *) set -- "$rtld" --library-path "$rtld_lib" "$guest/tests/$t" ;;
      esac
      env -i PATH=/usr/bin:/bin LC_ALL=C "$emu" -strace "$@" > "$tr" 2>&1 ||
        { echo "    FAIL: $t under $emu -strace (see $tr)" >> "$report"; status=1; }
      # grep -c exits 1 when it counts 0; the count is what matters.
      rseq=$(grep -Ec '(^|[^_[:alnum:]])rseq\(|[Uu]nknown syscall 383\b' "$tr" || :)
      getcpu=$(grep -Ec '(^|[^_[:alnum:]])getcpu\(' "$tr" || :)
      [ "$rseq" -eq 0 ] && [ "$getcpu" -gt 0 ]
      verdict $? "$t traced: no rseq system call, $getcpu getcpu calls" \
        "$t traced: $rseq rseq system calls, $getcpu getcpu calls (see $tr)"
    done
  fi
fi
{
  echo
  echo "## guest/"
  echo
  echo "    $guest ($(du -sh "$guest" | cut -f1)):"
  echo "    glibc/ (make install DESTDIR), tests/, tests.list, run-tests.sh, overlay.sh"
  echo "    in the guest: sh DIR/run-tests.sh DIR; tests.list:"
  sed 's/^/      /' "$guest/tests.list"
  echo
  echo "make glibc (cross): $(cat "$GL_CACHE/build-patched.seconds" 2>/dev/null) s this run;"
  echo "last full build from a fresh build directory: $(cat "$GL_CACHE/build-patched-full.seconds" 2>/dev/null || echo unknown) s."
  echo "The six tests built in $(cat "$out/build-tests.seconds") s."
  echo "make check-glibc GLIBC_ARCH=$GLIBC_ARCH: $(( $(date +%s) - t0 )) s this run."
} >> "$report"
cat "$report"
if [ $status -eq 0 ]; then
  gl_log "make check-glibc GLIBC_ARCH=$GLIBC_ARCH: PASS ($report)"
else
  gl_log "make check-glibc GLIBC_ARCH=$GLIBC_ARCH: FAIL ($report)"
fi
exit $status
