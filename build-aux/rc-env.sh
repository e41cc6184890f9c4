# Where rseq-compat keeps what outlives a build, and which Debian mirror
# it uses (sourced by the matrix, glibc, soak, bench and sanitizer
# scripts; POSIX sh).
#
#   RSEQ_COMPAT_CACHE   the one directory for every cache: chroots,
#                       kernels, glibc builds and baselines, downloads,
#                       logs (default ~/.cache/rseq-compat, or
#                       $XDG_CACHE_HOME/rseq-compat).
#   RSEQ_COMPAT_MIRROR  the Debian archive to bootstrap and install
#                       from (default: the first Debian archive in this
#                       machine's own apt sources).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later

RSEQ_COMPAT_CACHE=${RSEQ_COMPAT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rseq-compat}
# Relative paths would change meaning inside a chroot or after a cd.
case $RSEQ_COMPAT_CACHE in
  /*) ;;
  *) RSEQ_COMPAT_CACHE=$(pwd)/$RSEQ_COMPAT_CACHE ;;
esac
export RSEQ_COMPAT_CACHE

# rc_apt_mirror [SOURCES...]: print the URI of the first enabled "deb"
# source whose suite is a Debian release (not its security archive,
# which has other suites and cannot bootstrap a root); nothing if none.
# Without arguments, reads the files apt itself reads (apt-config knows
# where they are): one-line sources.list files and deb822 .sources.
rc_apt_mirror() {
  if [ $# -eq 0 ]; then
    _list=/etc/apt/sources.list _parts=/etc/apt/sources.list.d
    if command -v apt-config >/dev/null 2>&1; then
      eval "$(apt-config shell _list Dir::Etc::sourcelist/f \
                               _parts Dir::Etc::sourceparts/d 2>/dev/null)"
    fi
    set -- "$_list"
    for _f in "${_parts%/}"/*.list "${_parts%/}"/*.sources; do
      set -- "$@" "$_f"
    done
  fi
  for _f in "$@"; do
    [ -r "$_f" ] || continue
    case $_f in
      *.sources) _fmt=deb822 ;;
      *) _fmt=line ;;
    esac
    awk -v fmt="$_fmt" '
      function debian_suite(s) {
        sub(/-(updates|backports|proposed-updates)$/, "", s)
        return s ~ /^(buster|bullseye|bookworm|trixie|forky|duke|sid|oldoldstable|oldstable|stable|testing|unstable)$/
      }
      function para_done(   n, i, s) {
        if (types ~ /(^|[ \t])deb([ \t]|$)/ && enabled != "no" && uris != "") {
          n = split(suites, s, /[ \t]+/)
          for (i = 1; i <= n; i++)
            if (debian_suite(s[i])) { split(uris, u, /[ \t]+/); print u[1]; found = 1; exit }
        }
        types = uris = suites = enabled = ""
      }
      fmt == "line" {
        sub(/#.*/, "")
        if ($1 != "deb") next
        i = 2
        if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
        if (debian_suite($(i + 1))) { print $i; found = 1; exit }
        next
      }
      /^[ \t]*#/ { next }
      /^[ \t]*$/ { para_done(); next }
      {
        line = $0
        key = tolower(line); sub(/:.*/, "", key)
        val = line; sub(/^[^:]*:[ \t]*/, "", val)
        if (key == "types") types = val
        else if (key == "uris") uris = val
        else if (key == "suites") suites = val
        else if (key == "enabled") enabled = tolower(val)
      }
      END { if (fmt == "deb822" && !found) para_done() }
    ' "$_f" | sed -n '1{s|/*$||;p;}' | grep . && return 0
  done
  return 1
}

# rc_mirror: the mirror to use, or a message naming the fix and failure.
rc_mirror() {
  if [ -z "${RSEQ_COMPAT_MIRROR:-}" ]; then
    RSEQ_COMPAT_MIRROR=$(rc_apt_mirror) || {
      echo "rseq-compat: this machine's apt sources name no Debian archive" \
           "(looked for a 'deb' source of a Debian suite in sources.list and" \
           "sources.list.d/*.sources);" \
           "set RSEQ_COMPAT_MIRROR to a Debian mirror's URL" >&2
      return 1
    }
    export RSEQ_COMPAT_MIRROR
  fi
  echo "$RSEQ_COMPAT_MIRROR"
}
