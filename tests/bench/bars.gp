# Clustered bars: one cluster per line of DATAFILE (first column the
# label), one bar per further column (its header the series name).
# gnuplot -e "datafile=...; ncol=N; outfile=...; title=...; ylabel=...;
#   logy=0|1" bars.gp    (N: the number of columns, label included)
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set terminal pngcairo size 900,500 font ",10"
set output outfile
set title title noenhanced
set ylabel ylabel
set datafile separator "\t"
set datafile missing "?"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set key top left
set grid ytics
set yrange [0:*]
if (logy) { set logscale y; set yrange [*:*] }
set xtics rotate by -20 noenhanced
set key noenhanced
plot for [c=2:ncol] datafile using c:xtic(1) title columnheader(c)
