#!/bin/sh
# install-guard.sh MAKE-COMMAND...: make install and make uninstall into the live
# system (no DESTDIR; here a scratch prefix) must not write over, or
# delete, files an installed package owns (build-aux/install-guard).
# A stand-in dpkg-query says which files the package "librseq-compat1"
# owns.  One "PASS: WHAT" or "FAIL: WHAT" line each.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
# The make to run comes as the arguments: the sources' Makefile with the
# build under test's B and CONFIG_MK (tests/lib's rseq_make_cmd), so that
# make never configures the sources in place (make distcheck's are
# read-only).
[ $# -gt 0 ] || { echo "usage: install-guard.sh MAKE [ARGUMENT...]" >&2; exit 2; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
check() { w=$1; shift; if "$@"; then echo "PASS: $w"; else echo "FAIL: $w"; fi; }
mkdir -p "$t/bin" "$t/p/lib/rseq-compat"
# The stand-in knows the files listed in $t/owned.
cat > "$t/bin/dpkg-query" <<EOS
#!/bin/sh
[ "\$1" = -S ] || exit 2
f=\$3
grep -qx -- "\$f" "$t/owned" || { echo "dpkg-query: no path found matching pattern \$f" >&2; exit 1; }
if grep -qx -- "\$f" "$t/diverted" 2>/dev/null; then
  # dpkg translates these: as German would, unless told LC_ALL=C.
  if [ "\${LC_ALL:-}" = C ]; then
    echo "local diversion from: \$f"
    echo "local diversion to: \$f.distrib"
  else
    echo "lokale Umleitung von: \$f"
    echo "lokale Umleitung nach: \$f.distrib"
  fi
fi
if grep -qx -- "\$f" "$t/divertedto" 2>/dev/null; then
  echo "local diversion from: /usr/share/elsewhere/original"
  echo "local diversion to: \$f"
  exit 0
fi
if grep -qx -- "\$f" "$t/pkgdiverted" 2>/dev/null; then
  echo "diversion by other-pkg from: \$f"
  echo "diversion by other-pkg to: \$f.other"
  echo "other-pkg, librseq-compat1:amd64: \$f"
  exit 0
fi
echo "librseq-compat1:amd64: \$f"
EOS
chmod +x "$t/bin/dpkg-query"
# The command, quoted, in a script of its own: sh keeps only one list
# of words ("$@"), and m's own arguments take it inside the function.
{
  printf '#!/bin/sh\nexec'
  for a; do printf " '%s'" "$(printf '%s' "$a" | sed "s/'/'\\\\''/g")"; done
  printf ' "$@"\n'
} > "$t/make"
chmod +x "$t/make"
m() { env PATH="$t/bin:$PATH" "$t/make" -s "$@" \
        prefix="$t/p" libdir="$t/p/lib" mandir="$t/p/man" > "$t/out" 2>&1; }

# 1. The package's library where the install would write its own.
echo "the package's" > "$t/p/lib/librseq-compat.so.1"
echo "$t/p/lib/librseq-compat.so.1" > "$t/owned"
m install
r=$?
check "make install over a package's file is refused" [ $r -ne 0 ]
check "... naming the file and its package" grep -q "$t/p/lib/librseq-compat.so.1 (package librseq-compat1:amd64)" "$t/out"
check "... and the way out" grep -q 'prefix of its own' "$t/out"
check "... leaving the package's file as it was" [ "$(cat "$t/p/lib/librseq-compat.so.1")" = "the package's" ]
check "... and writing nothing else" [ ! -e "$t/p/bin/rseq-compat" ]
m uninstall
r=$?
check "make uninstall of a package's file is refused, deleting nothing" \
  sh -c "[ $r -ne 0 ] && [ -e '$t/p/lib/librseq-compat.so.1' ] && grep -q 'make uninstall: refused' '$t/out'"

# 2. Only the package's directory of preload links shared (review 9a).
rm -f "$t/p/lib/librseq-compat.so.1"
ln -s ../librseq-compat.so.1 "$t/p/lib/rseq-compat/x86_64-linux-gnu.so"
echo "$t/p/lib/rseq-compat/x86_64-linux-gnu.so" > "$t/owned"
m install
r=$?
check "make install into a directory holding a package's file is refused" \
  sh -c "[ $r -ne 0 ] && grep -q 'rseq-compat/x86_64-linux-gnu.so (package' '$t/out' && [ ! -e '$t/p/lib/librseq-compat.so.1' ]"

# 3. Asked for, it goes ahead and says so; with nothing owned, it is quiet.
RSEQ_COMPAT_OVER_PACKAGES=yes m install
r=$?
check "RSEQ_COMPAT_OVER_PACKAGES=yes installs, with a warning" \
  sh -c "[ $r -eq 0 ] && [ -e '$t/p/lib/librseq-compat.so.1' ] && grep -q 'warning: going ahead' '$t/out'"
: > "$t/owned"
m uninstall
r=$?
check "with no package's file in the way, make uninstall runs" sh -c "[ $r -eq 0 ] && [ ! -e '$t/p/lib/librseq-compat.so.1' ]"
m install
r=$?
check "... and make install, silently" sh -c "[ $r -eq 0 ] && ! grep -q 'refused\|warning' '$t/out' && [ -x '$t/p/bin/rseq-compat' ]"
# 4. A file the administrator diverted (dpkg-divert --local) is theirs
# to write; a file in a directory name with a space is still found.
rm -rf "$t/p"
mkdir -p "$t/p/lib/rseq-compat/sub dir"
echo "the package's" > "$t/p/lib/librseq-compat.so.1"
echo "$t/p/lib/librseq-compat.so.1" > "$t/owned"
echo "$t/p/lib/librseq-compat.so.1" > "$t/diverted"
m install
r=$?
check "a diverted file is not refused" [ $r -eq 0 ]
m uninstall > /dev/null 2>&1
echo "the package's" > "$t/p/lib/librseq-compat.so.1"
LANGUAGE=de LC_ALL=de_DE.UTF-8 m install
r=$?
check "... in any locale (dpkg's messages read untranslated)" [ $r -eq 0 ]
: > "$t/diverted"
m uninstall > /dev/null 2>&1
echo "the package's" > "$t/p/lib/librseq-compat.so.1"
echo "$t/p/lib/librseq-compat.so.1" > "$t/pkgdiverted"
m install
r=$?
check "a file another package diverted to ship its own there is refused" \
  sh -c "[ $r -ne 0 ] && grep -q 'librseq-compat.so.1 (package other-pkg' '$t/out'"
: > "$t/pkgdiverted"
rm -rf "$t/p"
m install
r=$?
check "a package's file missing on disk is still refused" \
  sh -c "[ $r -ne 0 ] && grep -q 'librseq-compat.so.1 (package librseq-compat1' '$t/out' && [ ! -e '$t/p/lib/librseq-compat.so.1' ]"
: > "$t/owned"
m uninstall > /dev/null 2>&1
echo "$t/p/lib/librseq-compat.so.1" > "$t/owned"
m uninstall > /dev/null 2>&1
mkdir -p "$t/p/lib/rseq-compat/sub dir"
touch "$t/p/lib/rseq-compat/sub dir/owned file"
echo "$t/p/lib/rseq-compat/sub dir/owned file" > "$t/owned"
m install
r=$?
check "a package's file under a directory name with a space is found" \
  sh -c "[ $r -ne 0 ] && grep -q 'sub dir/owned file (package' '$t/out'"
: > "$t/owned"
rm -rf "$t/p/lib/rseq-compat/sub dir"

# 5. A staging install (DESTDIR) is a package build's: not checked.
echo "$t/p/lib/librseq-compat.so.1" > "$t/owned"
m install DESTDIR=/ 
r=$?
check "DESTDIR=/ is the live system: checked" [ $r -ne 0 ]
ln -s / "$t/root-link"
bad=
for d in /. /// /usr/.. "$t/root-link"; do
  m install DESTDIR="$d" || continue
  bad="$bad $d"
done
check "so is every other spelling of / (/., ///, /usr/.., a link to /)${bad:+; not:$bad}" [ -z "$bad" ]
m install DESTDIR="$t/stage"
r=$?
check "an install into DESTDIR is not checked" sh -c "[ $r -eq 0 ] && [ -e '$t/stage$t/p/lib/librseq-compat.so.1' ]"

# 6. Installation directories make would split or expand: refused
# before anything is written or deleted (third review: DESTDIR="stage "
# made make uninstall delete $(libdir)'s files).
rm -rf "$t/stage"
: > "$t/owned"
m install
echo "$t/p/lib/librseq-compat.so.1" > "$t/owned"
m uninstall DESTDIR="$t/stage "
r=$?
check "DESTDIR with a trailing blank is refused, deleting nothing outside it" \
  sh -c "[ $r -ne 0 ] && [ -e '$t/p/lib/librseq-compat.so.1' ] && [ -e '$t/p/bin/rseq-compat' ] && grep -q \"DESTDIR='$t/stage ': an installation directory with a blank\" '$t/out'"
: > "$t/owned"
m install DESTDIR="$t/st;x"
r=$?
check "... and one with a character the shell would interpret (;)" \
  sh -c "[ $r -ne 0 ] && grep -q 'or a character the shell or make would interpret' '$t/out'"

# 7. The package's own directory, its files missing on disk; and the
# file a diversion moved a package's file to.
m uninstall > /dev/null 2>&1
mkdir -p "$t/p/lib/rseq-compat"
echo "$t/p/lib/rseq-compat" > "$t/owned"
m install
r=$?
check "a directory a package owns (its files missing) is refused" \
  sh -c "[ $r -ne 0 ] && grep -q '$t/p/lib/rseq-compat (package' '$t/out'"
rm -rf "$t/p"
echo "$t/p/bin/rseq-compat" > "$t/owned"
echo "$t/p/bin/rseq-compat" > "$t/divertedto"
m install
r=$?
check "the target of a diversion, where a package's file now lives, is refused" \
  sh -c "[ $r -ne 0 ] && grep -q 'bin/rseq-compat (package a file diverted there)' '$t/out'"
: > "$t/owned"; : > "$t/divertedto"
