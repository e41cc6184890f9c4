#!/bin/sh
# dist-check.sh SRCDIR: make dist's tarball (build-aux/dist), without
# building it: twice the same bytes; its MANIFEST lists exactly its
# files; nothing outside NAME/; and from the unpacked tarball (no git)
# the same tarball again.  And ../configure from a build directory
# writes a Makefile there that names the sources and the build
# directory.  One "PASS: WHAT" or "FAIL: WHAT" line each.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
src=$1
t=$(mktemp -d)
trap 'chmod -R u+w "$t"; rm -rf "$t"' EXIT
check() { w=$1; shift; if "$@"; then echo "PASS: $w"; else echo "FAIL: $w"; fi; }
if ! git -C "$src" rev-parse --show-toplevel >/dev/null 2>&1 ||
   [ "$(cd "$(git -C "$src" rev-parse --show-toplevel)" && pwd -P)" != "$(cd "$src" && pwd -P)" ]; then
  # A tree without git (a chroot's copy, an unpacked tarball): pack it
  # from MANIFEST, which a copy of a checkout lacks; then the checks
  # below run on a tarball made from a MANIFEST of its git-less files.
  sh "$src/build-aux/tree-files" "$src" | tr '\0' '\n' | grep -v -x .gitignore |
    LC_ALL=C sort > "$t/list"
  mkdir "$t/src" && (cd "$src" && tar -cf - -T "$t/list") | tar -xf - -C "$t/src"
  grep -vx MANIFEST "$t/list" > "$t/src/MANIFEST"; echo MANIFEST >> "$t/src/MANIFEST"
  src=$t/src
fi
sh "$src/build-aux/dist" "$src" rc-x "$t/a.tar.gz" > /dev/null 2>&1
r=$?
sleep 1
sh "$src/build-aux/dist" "$src" rc-x "$t/b.tar.gz" > /dev/null 2>&1
check "make dist writes a tarball" [ $r -eq 0 ]
check "make dist is reproducible (the same bytes twice)" cmp -s "$t/a.tar.gz" "$t/b.tar.gz"
tar -tzf "$t/a.tar.gz" | LC_ALL=C sort > "$t/files"
check "every file is under rc-x/" sh -c "! grep -v '^rc-x/' '$t/files'"
mkdir "$t/u" && tar -C "$t/u" -xzf "$t/a.tar.gz"
check "MANIFEST lists exactly the tarball's files" \
  sh -c "[ \"\$(sed 's|^|rc-x/|' '$t/u/rc-x/MANIFEST' | LC_ALL=C sort)\" = \"\$(cat '$t/files')\" ]"
check "the tarball has configure, the Makefile and the tests" \
  sh -c "grep -qx rc-x/configure '$t/files' && grep -qx rc-x/Makefile '$t/files' && grep -q '^rc-x/tests/rseq.shim/' '$t/files'"
check "no .gitignore in the tarball" sh -c "! grep -qx 'rc-x/.gitignore' '$t/files'"
chmod -R a-w "$t/u/rc-x"
sh "$t/u/rc-x/build-aux/dist" "$t/u/rc-x" rc-x "$t/c.tar.gz" > "$t/c.out" 2>&1
check "make dist in the unpacked tarball packs the same files" \
  sh -c "[ \"\$(tar -tzf '$t/c.tar.gz' | LC_ALL=C sort)\" = \"\$(cat '$t/files')\" ]"
# Sources checked out or unpacked under umask 077 (no group or other
# bits) give the same bytes.
mkdir "$t/v" && tar -C "$t/v" -xzf "$t/a.tar.gz" && chmod -R go-rwx "$t/v/rc-x"
(umask 077 && sh "$t/v/rc-x/build-aux/dist" "$t/v/rc-x" rc-x "$t/e.tar.gz" > /dev/null 2>&1)
check "... and the same bytes from sources without group and other bits (umask 077)" \
  sh -c "[ -s '$t/e.tar.gz' ] && cmp -s '$t/c.tar.gz' '$t/e.tar.gz'"
mkdir "$t/obj"
(cd "$t/obj" && "$t/u/rc-x/configure" > conf.log 2>&1)
r=$?
check "../configure in a build directory, read-only sources: a Makefile there naming both" \
  sh -c "[ $r -eq 0 ] && grep -qx 'srcdir := $t/u/rc-x' '$t/obj/Makefile' && grep -qx 'builddir := $t/obj' '$t/obj/Makefile' && [ -f '$t/obj/config.mk' ] && [ ! -e '$t/u/rc-x/config.mk' ]"
mkdir "$t/s p"
(cd "$t/s p" && "$t/u/rc-x/configure" > conf.log 2>&1)
r=$?
check "configure refuses a build directory whose path has a space (make splits there)" \
  sh -c "[ $r -ne 0 ] && grep -q 'which make reads as its own' '$t/s p/conf.log' && [ ! -e '$t/s p/Makefile' ]"
mkdir -p "$t/v/rc-x/build/obj"
(cd "$t/v/rc-x/build/obj" && "$t/v/rc-x/configure" > "$t/conf2.log" 2>&1)
r=$?
check "... and one inside the sources' build/, which make clean deletes" \
  sh -c "[ $r -ne 0 ] && grep -q 'which make clean deletes' '$t/conf2.log'"
ln -s "$t/v/rc-x" "$t/vl"
(cd "$t/vl" && "$t/vl/configure" > "$t/conf3.log" 2>&1)
r=$?
check "configure from the sources reached through a link is in-tree: their Makefile is kept" \
  sh -c "[ $r -eq 0 ] && cmp -s '$t/v/rc-x/Makefile' '$t/u/rc-x/Makefile'"
mkdir -p "$t/b l/real" "$t/h#x"
ln -s "$t/b l/real" "$t/obj-link"
(cd "$t/obj-link" && "$t/u/rc-x/configure" > "$t/conf4.log" 2>&1)
r4=$?
(cd "$t/h#x" && "$t/u/rc-x/configure" > "$t/conf5.log" 2>&1)
r5=$?
check "... a build directory whose path has a blank behind a link, or a # (make's comment), is refused" \
  sh -c "[ $r4 -ne 0 ] && [ $r5 -ne 0 ] && grep -q 'which make reads as its own' '$t/conf4.log' && grep -q 'which make reads as its own' '$t/conf5.log'"
