# Per-CPU counters: ns per increment against the number of threads, one
# panel per platform, one line per variant.
# gnuplot -e "files='a.dat b.dat'; titles='A|B'; outfile=..." counter.gp
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
n = words(files)
set terminal pngcairo size (n * 450 + 50),450 font ",10"
set output outfile
set datafile separator "\t"
set datafile missing "?"
set logscale y
set grid
set key top left noenhanced
set xlabel "threads"
set ylabel "ns per increment (log)"
set xtics 1
set multiplot layout 1,n
do for [i=1:n] {
  f = word(files, i)
  t = titles
  do for [j=2:i] { t = t[strstrt(t, "|") + 1:] }
  if (strstrt(t, "|") > 0) { t = t[1:strstrt(t, "|") - 1] }
  set title t noenhanced
  plot for [c=2:7] f using 1:c with linespoints lw 2 title columnheader(c)
}
unset multiplot
