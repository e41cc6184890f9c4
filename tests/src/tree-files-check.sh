#!/bin/sh
# tree-files-check.sh SRCDIR: build-aux/tree-files lists a tree's own
# files wherever the tree lies: the top of its own git checkout (new
# files in, ignored and deleted ones out), a copy under another
# checkout's ignored build/ (make distcheck's), and a copy in another
# checkout's tracked subdirectory.  The expected lists are the copies'
# files as find sees them, not tree-files' own answer.  One "PASS:
# WHAT" or "FAIL: WHAT" line each; one "NOTE: ..." line without git.
# And build-aux/provenance names the commit of the own checkout only.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
src=$1
tf="sh $src/build-aux/tree-files"
# Without git (the chroots' make check), tree-files never asks it, and
# none of the places below can be made.
if ! command -v git > /dev/null 2>&1; then
  echo "NOTE: no git on PATH: tree-files lists every file but the build's here, and there is no checkout to be inside"
  exit 0
fi
t=$(mktemp -d) || exit 1
trap 'chmod -R u+w "$t"; rm -rf "$t"' EXIT
export GIT_CONFIG_NOSYSTEM=1 HOME=$t GIT_AUTHOR_NAME=rc GIT_AUTHOR_EMAIL=rc@invalid \
  GIT_COMMITTER_NAME=rc GIT_COMMITTER_EMAIL=rc@invalid
check() { w=$1; shift; if "$@"; then echo "PASS: $w"; else echo "FAIL: $w"; fi; }
# copy DEST: the tree's files, as plain files, under DEST, writable
# (make distcheck's sources are read-only).
copy() {
  mkdir -p "$1" && $tf "$src" | (cd "$src" && tar --null -T - -cf -) | tar -xf - -C "$1" &&
    chmod -R u+w "$1"
}
# files DIR: every regular file under DIR but build/, sorted.
files() {
  (cd "$1" && find . -path ./build -prune -o -path ./.git -prune -o -type f -print |
     sed 's|^\./||' | LC_ALL=C sort)
}
# listed DIR: tree-files' answer for DIR, sorted.
listed() { $tf "$1" | tr '\0' '\n' | LC_ALL=C sort; }
same() {
  listed "$1" > "$t/got"
  printf '%s\n' "$2" > "$t/want"
  cmp -s "$t/want" "$t/got" && return 0
  diff "$t/want" "$t/got" | head -n 5 >&2
  return 1
}

# Its own checkout: a new file is listed; an ignored one, a deleted
# tracked one and build/ are not.
o=$t/own
# A tarball has no .gitignore (make dist leaves it out): the one a
# checkout has.
copy "$o" && { [ -f "$o/.gitignore" ] || printf '/build/\n/config.mk\n' > "$o/.gitignore"; } &&
  git -C "$o" init -q && git -C "$o" add -A && git -C "$o" commit -q -m c ||
  { echo "FAIL: a checkout of the tree can be made"; exit 0; }
want=$(files "$o" | grep -v -x -e README.md; echo rc-new-file)
want=$(printf '%s\n' "$want" | LC_ALL=C sort)
rm "$o/README.md"; echo x > "$o/rc-new-file"; echo x > "$o/config.mk"
mkdir -p "$o/build" && echo x > "$o/build/out"
check "tree-files: its own checkout (new in; ignored, deleted and build/ out)" same "$o" "$want"

# Under another checkout's ignored build/, as make distcheck unpacks.
x=$t/outer
mkdir -p "$x" && git -C "$x" init -q && printf '/build/\n' > "$x/.gitignore" &&
  git -C "$x" add .gitignore && git -C "$x" commit -q -m c || exit 1
copy "$x/build/rc"
want=$(files "$x/build/rc")
mkdir -p "$x/build/rc/build" && echo x > "$x/build/rc/build/out" && echo x > "$x/build/rc/config.status"
check "tree-files: a copy under another checkout's ignored build/" same "$x/build/rc" "$want"

# In another checkout's tracked subdirectory: that checkout's files
# are not the tree's.
copy "$x/sub" && git -C "$x" add sub && git -C "$x" commit -q -m sub || exit 1
want=$(files "$x/sub")
check "tree-files: a copy in another checkout's tracked subdirectory" same "$x/sub" "$want"

# build-aux/provenance names the commit of the tree's own checkout only,
# not of the checkout the copy lies in.
outer=$(git -C "$x" rev-parse --short=12 HEAD)
line=$(sh "$src/build-aux/provenance" "$x/build/rc" t)
check "provenance: a copy inside another checkout names no commit of it" \
  sh -c "case '$line' in *'$outer'*|*'commit unknown'*'uncommitted'*) false;; *'commit unknown'*) true;; *) false;; esac"
line=$(sh "$src/build-aux/provenance" "$o" t)
own=$(git -C "$o" rev-parse --short=12 HEAD)
check "provenance: its own checkout's commit, with uncommitted changes" \
  sh -c "case '$line' in *'commit $own with uncommitted changes'*) true;; *) false;; esac"

# A checkout git will not read (another user's: safe.directory), with
# a repository of its own inside: listed without git, and no file of
# either .git is the tree's.
u=$t/other
copy "$u" && git -C "$u" init -q && mkdir -p "$u/sub" && echo x > "$u/sub/f" &&
  git -C "$u/sub" init -q && chown -R 65534:65534 "$u" || exit 1
listed "$u" > "$t/got"
check "tree-files: a checkout git refuses to read lists no .git files" \
  sh -c "! grep -q -E '(^|/)\\.git(/|\$)' '$t/got' && grep -qx Makefile '$t/got'"
