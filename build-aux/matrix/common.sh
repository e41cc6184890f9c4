# Shared settings for the make check-matrix scripts (sourced, not run).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later

# Downloads, chroots and kernels live outside the tree, under
# RSEQ_COMPAT_CACHE, so that a rerun (or another clone) reuses them; the
# mirror comes from this machine's apt sources (RSEQ_COMPAT_MIRROR).
# Sourced from scripts in build-aux/ and in its subdirectories.
for _rc_env in "$(dirname "$0")/rc-env.sh" "$(dirname "$0")/../rc-env.sh"; do
  [ -e "$_rc_env" ] && break
done
. "$_rc_env"

mx_log() { printf 'matrix: %s\n' "$*" >&2; }
mx_die() { printf 'matrix: %s\n' "$*" >&2; exit 1; }

# What make check leaves out in a chroot (check.sh) and in an arm64
# guest (aarch64, guest-check.sh), as runtest's EXCLUDE (comma-separated
# patterns; tests/lib/rseq.exp, rseq_excluded), and why: printed in the
# log and the report.  build-aux/oldlibc/check.sh leaves the same file
# out of its chroots' list.  The pattern is the file's name without
# ".exp", which static-old.exp asks rseq_excluded about: runtest takes
# any argument that ends in ".exp" for the name of a test file, before
# it looks for VAR=VALUE, so "EXCLUDE=static-old.exp" set no EXCLUDE and
# ran only a test file of that name, which there is none of ("make
# check: no test ran").
MX_EXCLUDE=static-old
MX_EXCLUDE_WHY="static-old.exp (tests the static archive against make
  check-oldlibc's builds and the bullseye chroot, read from
  RSEQ_COMPAT_CACHE on the host, which a chroot or guest cannot see; it
  runs in the host's make check, and static.exp tests the archive on the
  userland's own C library here)"
# mx_exclude_flags FLAGS: runtest's FLAGS with MX_EXCLUDE added to their
# EXCLUDE (or as one).
mx_exclude_flags() {
  case " $1 " in
    *" EXCLUDE="*) printf '%s\n' "$1" | sed "s/\(^\| \)EXCLUDE=/\1EXCLUDE=$MX_EXCLUDE,/" ;;
    *) printf '%s\n' "${1:+$1 }EXCLUDE=$MX_EXCLUDE" ;;
  esac
}

# mx_in_chroot DIR CMD...: run CMD as root in DIR with /proc and /dev
# (and, with MX_SYSFS=1, /sys read-only), in a private mount namespace,
# so the mounts go away with the command however it ends.
mx_in_chroot() {
  _d=$1; shift
  MX_SYSFS=${MX_SYSFS:-} unshare --mount --propagation private -- /bin/sh -c '
    d=$1; shift
    mount -t proc proc "$d/proc" && mount --rbind /dev "$d/dev" || exit 125
    if [ -n "$MX_SYSFS" ]; then mount -t sysfs -o ro sysfs "$d/sys" || exit 125; fi
    exec chroot "$d" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
      HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"' \
    sh "$_d" "$@"
}

# mx_stage_root SRC ROOT DST: at DST, a test root for the guests and the
# host run, from what inner-build.sh (or oldlibc's inner-stage.sh) wrote
# to SRC: mxcheck and the shim, "version", and "libs" (PATH<TAB>REAL-PATH,
# REAL-PATH as seen inside ROOT: a chroot, or "" for the host).
mx_stage_root() {
  _src=$1 _root=$2 _dst=$3
  mkdir -p "$_dst/rc" "$_dst/proc" "$_dst/sys" &&
    cp "$_src/mxcheck" "$_src/librseq-compat.so.1" "$_dst/rc/" &&
    cp "$_src/version" "$_dst/.version" || return 1
  _tab=$(printf '\t')
  while IFS=$_tab read -r _path _real; do
    mkdir -p "$_dst$(dirname "$_path")" && cp "$_root$_real" "$_dst$_path" || return 1
  done < "$_src/libs"
}

# mx_copy_tree TOP DEST: the tree at TOP (build-aux/tree-files: without
# build outputs) copied into DEST.
mx_copy_tree() {
  sh "$1/build-aux/tree-files" "$1" | (cd "$1" && tar --null -T - -cf -) |
    tar -xf - -C "$2"
}

# mx_hold_chroot NAME [FD]: hold a shared lock on the chroot NAME
# (SUITE or SUITE-ARCH) on file descriptor FD (6; a script holding two
# chroots gives the second another) until this script ends.  chroot.sh
# brings a chroot up to date only under the exclusive lock, so it waits
# for every tier that builds or tests in it; a script that holds NAME
# and calls chroot.sh NAME again is told so rather than waiting for
# itself (RC_CHROOT_HELD).
mx_hold_chroot() {
  _hl=$RSEQ_COMPAT_CACHE/chroot/.$1.use
  mkdir -p "$RSEQ_COMPAT_CACHE/chroot" || mx_die "cannot make $RSEQ_COMPAT_CACHE/chroot"
  case ${2:-6} in [3-9]) ;; *) mx_die "mx_hold_chroot: bad descriptor '${2:-}'" ;; esac
  eval "exec ${2:-6}>> \"\$_hl\"" && flock -s "${2:-6}" ||
    mx_die "$1: cannot lock $_hl"
  RC_CHROOT_HELD="${RC_CHROOT_HELD:-} $1 "
  export RC_CHROOT_HELD
}

# mx_chroot_exclusive NAME WHAT: the exclusive lock on the chroot NAME,
# on descriptor 6, before WHAT (making it, updating it): remaking or
# updating a chroot under a tier that builds in it loses that tier's
# work, so this waits for them (MX_CHROOT_WAIT seconds, an hour).
mx_chroot_exclusive() {
  case ${RC_CHROOT_HELD:-} in
    *" $1 "*) mx_die "$1: its package index changed while this run uses it (the mirror moved); run again" ;;
  esac
  mkdir -p "$RSEQ_COMPAT_CACHE/chroot" || mx_die "cannot make $RSEQ_COMPAT_CACHE/chroot"
  exec 6>> "$RSEQ_COMPAT_CACHE/chroot/.$1.use" || mx_die "$1: cannot open $RSEQ_COMPAT_CACHE/chroot/.$1.use"
  if ! flock -n -x 6; then
    mx_log "$1: waiting for the tiers using it before $2"
    flock -x -w "${MX_CHROOT_WAIT:-3600}" 6 ||
      mx_die "$1: still in use after ${MX_CHROOT_WAIT:-3600} s ($RSEQ_COMPAT_CACHE/chroot/.$1.use); $2 not done"
  fi
}

# mx_run_lock NAME: one run of NAME (check-matrix, check-aarch64,
# check-oldlibc, make deb) at a time per cache, until this script ends:
# each rebuilds its work directories in the shared chroots (/rc, /rco,
# /rc-deb) and uses them to its end (make check there, the guests'
# boots), and two runs side by side (a CI chain and a check-full
# chain) would delete each other's.  On descriptor 8.
mx_run_lock() {
  exec 8>> "$RSEQ_COMPAT_CACHE/.$1.run.lock" || mx_die "cannot open $RSEQ_COMPAT_CACHE/.$1.run.lock"
  if ! flock -n 8; then
    mx_log "another $1 run uses this cache ($RSEQ_COMPAT_CACHE); waiting for it"
    flock 8 || mx_die "cannot lock $RSEQ_COMPAT_CACHE/.$1.run.lock"
  fi
}

# mx_without_fds CMD [ARG...]: run CMD with every descriptor above 2
# closed (the caller keeps its own: the locks stay held).
mx_without_fds() {
  perl -MPOSIX -e '
    opendir(my $d, "/proc/self/fd") or die "rseq-compat: /proc/self/fd: $!\n";
    my @fds = grep { /^[0-9]+$/ && $_ > 2 } readdir($d);
    closedir($d);
    POSIX::close($_) for @fds;
    exec { $ARGV[0] } @ARGV or die "rseq-compat: cannot run $ARGV[0]: $!\n";
  ' "$@"
}

# mx_bootstrap SUITE DEST LOG [ARCH]: at DEST (made anew), a minbase
# root of Debian SUITE, for ARCH if given (a foreign architecture runs
# its maintainer scripts under qemu-user, which binfmt.sh must have
# registered).  mmdebstrap makes it once, as a tarball under
# $RSEQ_COMPAT_CACHE/rootfs/ that every chroot of the suite starts from
# (the matrix's, the glibc series', the VM guest's, piuparts' and
# autopkgtest's), and again when the suite's package index
# (build-aux/suite-index) is no longer the one it was made from.
# Returns 1 with the cause on stderr.
mx_bootstrap() {
  _s=$1 _dest=$2 _log=$3 _arch=${4:-}
  _aux=$(cd "$(dirname "$_rc_env")" && pwd)
  _tar=$RSEQ_COMPAT_CACHE/rootfs/$_s${_arch:+-$_arch}.tar
  mkdir -p "$RSEQ_COMPAT_CACHE/rootfs" || return 1
  # One maker at a time: two tiers may want the same suite at once.
  (
    flock 9 || exit 1
    _want=$("$_aux/suite-index" --hash "$_s") || exit 1
    [ -f "$_tar" ] && [ "$(cat "$_tar.index" 2>/dev/null)" = "$_want" ] && exit 0
    _m=$(rc_mirror) || exit 1
    if ! command -v mmdebstrap >/dev/null 2>&1; then
      echo "rseq-compat: mmdebstrap is missing; apt-get install mmdebstrap" \
           "(build-aux/ensure-deps build-aux/matrix/debian-packages installs it)" >&2
      exit 1
    fi
    # Before 1.0 (bullseye's 0.7.5) a foreign root needs a
    # qemu-ARCH-static on the host; later ones use binfmt_misc's F flag.
    _v=$(mmdebstrap --version 2>/dev/null | awk '{ print $2 }')
    if [ -n "$_arch" ] && [ "${_v%%.*}" -lt 1 ] 2>/dev/null; then
      echo "rseq-compat: an $_arch root needs mmdebstrap 1.0 or later" \
           "(bookworm's or newer); this host has $_v" >&2
      exit 1
    fi
    printf 'rseq-compat: mmdebstrap --variant=minbase %s%s (log: %s)\n' \
      "$_s" "${_arch:+ --architectures=$_arch}" "$_log" >&2
    rm -f "$_tar.partial"
    # The tarball is written under another name and renamed when whole:
    # a run stopped halfway leaves nothing that looks finished.
    # mmdebstrap hands apt a pipe as "cat >&FD" for /bin/sh, and dash
    # reads only one digit there: with the locks and make's jobserver
    # open below it the pipe lands on fd 10 or above and the essential
    # download dies with "Bad fd number" (trixie arm64, check-full).
    # Nothing mmdebstrap runs needs our descriptors.
    # A mirror or snapshot may serve sid's Release past its Valid-Until
    # (renewed weekly), which apt then refuses: "Release file ... is
    # expired".  The signature is still checked (mx_apt_setup does the
    # same inside the chroots).
    if ! mx_without_fds mmdebstrap --mode=root --variant=minbase --format=tar \
           --aptopt='Acquire::Check-Valid-Until "false"' \
           ${_arch:+--architectures="$_arch"} "$_s" "$_tar.partial" "$_m" \
           >>"$_log" 2>&1; then
      rm -f "$_tar.partial"
      tail -n 5 "$_log" >&2
      echo "rseq-compat: mmdebstrap of $_s${_arch:+ ($_arch)} failed; see $_log" \
           "(mirror: $_m; RSEQ_COMPAT_MIRROR=URL picks another${_arch:+; is qemu-user registered? build-aux/matrix/binfmt.sh})" >&2
      exit 1
    fi
    # The index mmdebstrap read is the one fetched just before it, unless
    # the mirror changed meanwhile: then the tiers' keys (taken again
    # after their runs) differ too, and no record is written.
    mv "$_tar.partial" "$_tar"
    echo "$_want" > "$_tar.index"
  ) 9> "$_tar.lock" || return 1
  rm -rf "$_dest" && mkdir -p "$_dest" &&
    tar -C "$_dest" --numeric-owner -xpf "$_tar" || {
      echo "rseq-compat: cannot unpack $_tar into $_dest" >&2
      return 1
    }
}


# mx_apt_setup ROOT SUITE: point ROOT's apt at the mirror for SUITE, with
# small installs.  Mirrors and snapshots may serve a Release file past its
# Valid-Until date (sid's is renewed weekly); its signature is still
# checked.  Tiers that share a root wait for each other's apt.
mx_apt_setup() {
  cat > "$1/etc/apt/apt.conf.d/90rseq-compat" <<'CONF'
APT::Install-Recommends "0";
APT::Install-Suggests "0";
Acquire::Retries "3";
Acquire::Check-Valid-Until "false";
DPkg::Lock::Timeout "900";
CONF
  _m=$(rc_mirror) || exit 1
  echo "deb $_m $2 main" > "$1/etc/apt/sources.list"
  cp /etc/resolv.conf "$1/etc/resolv.conf" 2>/dev/null || :
}

# mx_apt ROOT CMD...: CMD in ROOT (mx_in_chroot) while no other tier
# runs apt or dpkg there: tiers share a suite's chroot, and dpkg's own
# lock makes a second one fail at once (apt-get update does not wait).
mx_apt() {
  _ar=$1; shift
  ( flock 8 || exit 1; mx_in_chroot "$_ar" "$@" ) 8> "$_ar.apt.lock"
}

# mx_ensure_deps ROOT SUITE LOG LIST...: install the packages of the
# project's LISTs in ROOT with build-aux/ensure-deps, as Debian SUITE,
# then check that the package index's claims about SUITE hold there.
mx_ensure_deps() {
  ( flock 8 || exit 1; _mx_ensure_deps "$@" ) 8> "$1.apt.lock"
}
_mx_ensure_deps() {
  _r=$1 _s=$2 _log=$3; shift 3
  _aux=$(cd "$(dirname "$_rc_env")" && pwd)
  # A run killed halfway through apt leaves dpkg "interrupted", which
  # refuses every later install until its configuration is finished.
  if [ -n "$(mx_in_chroot "$_r" dpkg --audit 2>&1)" ] &&
     ! mx_in_chroot "$_r" dpkg --configure -a >>"$_log" 2>&1; then
    echo "rseq-compat: dpkg --configure -a failed in $_r; see $_log" >&2
    return 1
  fi
  rm -rf "$_r/tmp/rc-deps"
  mkdir -p "$_r/tmp/rc-deps"
  cp "$_aux/ensure-deps" "$_aux/debian-package-index" "$_r/tmp/rc-deps/"
  _lists= _n=0
  for _l in "$@"; do
    _n=$((_n + 1))
    cp "$_l" "$_r/tmp/rc-deps/list$_n-$(basename "$_l")"
    _lists="$_lists /tmp/rc-deps/list$_n-$(basename "$_l")"
  done
  # shellcheck disable=SC2086
  # The index records the amd64 archive (some packages, the cross
  # compilers, exist only there): another architecture's chroot is not
  # held to it.
  _verify=--verify-index
  [ "$(mx_in_chroot "$_r" dpkg --print-architecture)" = "$(dpkg --print-architecture)" ] ||
    _verify=
  mx_in_chroot "$_r" env RSEQ_COMPAT_SUITE="$_s" /bin/sh /tmp/rc-deps/ensure-deps $_lists \
    >>"$_log" 2>&1 &&
  { [ -z "$_verify" ] ||
    mx_in_chroot "$_r" env RSEQ_COMPAT_SUITE="$_s" /bin/sh /tmp/rc-deps/ensure-deps $_verify \
      >>"$_log" 2>&1; } || {
    grep '^rseq-compat: ' "$_log" | tail -n 5 >&2
    return 1
  }
}
