# Sourced by system-enable.sh and deb-prerm.sh, which run in a mount
# namespace of their own: a private view of the directories a shim
# installation writes, and the installation itself, as make install
# makes it.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later

# ns_private_libdirs SCRATCH LIBDIR PRELOADDIR: overlays on PRELOADDIR's
# parent, where PRELOADDIR is not LIBDIR/rseq-compat, and on LIBDIR
# (they may hold the system's libraries, and a copy of the shim
# installed already, which goes from this view); the parent first,
# since LIBDIR may lie under it.  Exits after a FAIL line if it cannot.
ns_private_libdirs() {
  if [ "$3" != "$2/rseq-compat" ]; then
    _pd=$(dirname "$3")
    mkdir "$1/pupper" "$1/pwork" &&
      mount -t overlay overlay -o "lowerdir=$_pd,upperdir=$1/pupper,workdir=$1/pwork" "$_pd" &&
      rm -rf "$3" ||
      { echo "FAIL: setup: cannot mount an overlay on $_pd"; exit 1; }
  fi
  mkdir "$1/lupper" "$1/lwork" &&
    mount -t overlay overlay -o "lowerdir=$2,upperdir=$1/lupper,workdir=$1/lwork" "$2" &&
    rm -rf "$2/librseq-compat.so.1" "$2/rseq-compat" ||
    { echo "FAIL: setup: cannot mount an overlay on $2"; exit 1; }
}

# ns_install_shim SHIM LAYOUT LIBDIR PRELOADDIR NAMES: SHIM as
# LIBDIR/librseq-compat.so.1, the preload layout under LIBDIR/rseq-compat
# and, where it is another directory, PRELOADDIR's links, under each
# $LIB name in NAMES (preload-layout LAYOUT).  Exits after a FAIL line
# if it cannot.
ns_install_shim() {
  cp "$1" "$3/librseq-compat.so.1" && chmod 755 "$3/librseq-compat.so.1" &&
    "$2" make "$3/rseq-compat" ../librseq-compat.so.1 - $5 &&
    { [ "$4" = "$3/rseq-compat" ] || "$2" make "$4" "$3/librseq-compat.so.1" - $5; } ||
    { echo "FAIL: setup: cannot install the shim in $3"; exit 1; }
}
