#!/bin/sh
# deps-sim.sh ENSURE-DEPS SCENARIO: run build-aux/ensure-deps against a
# simulated Debian system (stub apt-get, apt-cache, id and clang on a
# PATH of their own), so that what it installs, in which order and what
# it says can be checked without a network or root.  Prints ensure-deps'
# stderr, then "status N", "stdout: N bytes" and that output (each line
# after "stdout| "), and "installed: ROUND..." (one word per apt-get
# install call, packages joined by commas).
#
# Scenarios (the suite, what its archive has, what each package brings):
#   bullseye       clang-11 brings its runtimes; no libclang-rt-dev
#   bookworm       the runtimes come in libclang-rt-dev
#   bullseye-old   bullseye with a list that names libclang-rt-dev for
#                  every suite (what broke every fresh bullseye chroot
#                  while the runtimes were looked for before clang came)
#   split          that list in a bullseye whose clang brought no
#                  runtimes: the package does not exist there
#   none           a SUITE=- entry for the suite
#   user           bookworm as a user other than root
#   verify-missing --verify-index in bullseye, whose archive has every
#                  package of build-aux/debian-package-index but gcc
#   verify-full    --verify-index where apt-cache fails (a full disk):
#                  the cause, not the whole index as missing
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
ensure=$1 scenario=$2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/bin" "$t/sys" "$t/rt"
for c in sh sed awk grep cat head sort tr dirname uname mktemp rm mkdir cp chmod; do
  ln -s "$(command -v "$c")" "$t/sys/$c"
done

arch=$(uname -m)
suite=bookworm uid=0
case $scenario in
  bullseye|bullseye-old|split|none|verify-*) suite=bullseye ;;
  user) uid=1000 ;;
esac
# archive: package -> files it installs (bin/NAME or rt/NAME).
case $scenario in
  split) cat > "$t/archive" <<EOF
rcsim-cc bin/rcsim-cc
clang bin/clang
EOF
  ;;
  bullseye*|none) cat > "$t/archive" <<EOF
rcsim-cc bin/rcsim-cc
clang bin/clang rt/libclang_rt.fuzzer-$arch.a
libclang-common-11-dev rt/libclang_rt.fuzzer-$arch.a
EOF
  ;;
  *) cat > "$t/archive" <<EOF
rcsim-cc bin/rcsim-cc
clang bin/clang
libclang-rt-dev rt/libclang_rt.fuzzer-$arch.a
EOF
  ;;
esac
override="bullseye=libclang-common-11-dev"
case $scenario in bullseye-old|split) override= ;; esac
cat > "$t/list" <<EOF
#% suites: bullseye bookworm
rcsim-cc                               rcsim-cc
clang                                  clang
clang:libclang_rt.fuzzer-@ARCH@.a      libclang-rt-dev $override
EOF
[ "$scenario" = none ] && echo "rcsim-none rcsim-none bullseye=-" >> "$t/list"

cat > "$t/bin/id" <<EOF
#!/bin/sh
[ "\$1" = -u ] && { echo $uid; exit 0; }
exit 1
EOF
cat > "$t/bin/apt-cache" <<EOF
#!/bin/sh
# apt-cache show --no-all-versions PACKAGE
for p; do :; done
grep -q "^\$p " "$t/archive"
EOF
cat > "$t/bin/apt-get" <<EOF
#!/bin/sh
[ "\$1" = update ] && exit 0
[ "\$1" = install ] || exit 100
shift
# Real apt-get writes its progress on stdout.
echo "Reading package lists..."
round=
for p; do
  case \$p in -*) continue ;; esac
  files=\$(grep "^\$p " "$t/archive") || { echo "E: Unable to locate package \$p"; exit 100; }
  round=\${round:+\$round,}\$p
  for f in \${files#* }; do
    case \$f in
      bin/clang) cp "$t/clang.stub" "$t/bin/clang"; chmod +x "$t/bin/clang" ;;
      bin/*) printf '#!/bin/sh\n' > "$t/\$f"; chmod +x "$t/\$f" ;;
      rt/*) : > "$t/\$f" ;;
    esac
  done
done
echo "\$round" >> "$t/rounds"
EOF
cat > "$t/clang.stub" <<EOF
#!/bin/sh
f=\${1#-print-file-name=}
if [ -e "$t/rt/\$f" ]; then echo "$t/rt/\$f"; else echo "\$f"; fi
EOF
case $scenario in
  verify-missing) cat > "$t/bin/apt-cache" <<EOF
#!/bin/sh
for p; do
  case \$p in -*|gcc) continue ;; esac
  printf 'Package: %s\\nDescription: x\\n\\n' "\$p"
done
EOF
  ;;
  verify-full) cat > "$t/bin/apt-cache" <<EOF
#!/bin/sh
echo "E: Write error - write (28: No space left on device)" >&2
exit 100
EOF
  ;;
esac
chmod +x "$t/bin/id" "$t/bin/apt-cache" "$t/bin/apt-get"

case $scenario in
  verify-*) set -- --verify-index ;;
  *) set -- "$t/list" ;;
esac
PATH=$t/bin:$t/sys RSEQ_COMPAT_SUITE=$suite "$t/sys/sh" "$ensure" "$@" 2>&1 >"$t/stdout"
echo "status $?"
# Scripts capture the stdout of callers of ensure-deps: installing must
# leave it empty.
echo "stdout: $(wc -c < "$t/stdout") bytes"
sed 's/^/stdout| /' "$t/stdout"
echo "installed: $(cat "$t/rounds" 2>/dev/null | tr '\n' ' ')"
