# Per-call cost by request mask, libxstat against the bare syscall sequence
# (the physical limit) in each backend, and the peers for the basic request.
# gnuplot -e "datafile='...'; outfile='...'; fslabel='...'" plot.gnuplot
set terminal pngcairo size 1100,560 font ",10" noenhanced
set output outfile
set title sprintf("Per-call cost on a hot cache, one file (%s): lower is better", fslabel)
set ylabel "cost per call, in raw statx calls (median of per-round ratios)"
set xlabel "request mask"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set key outside right top vertical
set grid ytics
set ytics 0.5
set yrange [0:*]
plot datafile using 2:xtic(1) title "xstat(), statx backend" lc rgb "#1f77b4", \
     ''       using 3 title "limit: statx (+n2h/+pread)" lc rgb "#aec7e8", \
     ''       using 4 title "xstat(), fallback backend" lc rgb "#d62728", \
     ''       using 5 title "limit: fstatat (+n2h/+pread)" lc rgb "#ff9896", \
     ''       using 6 title "raw syscall(SYS_statx)" lc rgb "#2ca02c", \
     ''       using 7 title "glibc statx()" lc rgb "#98df8a", \
     ''       using 8 title "fstatat()" lc rgb "#9467bd", \
     ''       using 9 title "libuv uv_fs_stat()" lc rgb "#8c564b"
