# Directory streams against the loops they replace, one directory of
# 100,000 files on ext4, root (bench/RESULTS.md, "Directory streams",
# run B of bench/bulk-run.sh, 2026-12-04): gnuplot bench/bulk.gnuplot from the
# source tree writes bench/bulk.png.
set terminal pngcairo size 900,520 font ",10" noenhanced
set output "bench/bulk.png"
set multiplot layout 1,2 title "100,000 files in one directory on ext4, ns per entry (lower is better)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set grid ytics
set yrange [0:*]
set xtics rotate by -35
unset key
set title "hot (thread CPU time, median of 9 rounds)"
$hot << END
"readdir+statx" 2875
"names+statx" 2694
"bulk basic" 3109
"bulk EXTENDED" 3865
"bulk ALL" 3584
"readdir+xstat() EXTENDED" 14309
END
plot $hot using 2:xtic(1) lc rgb "#1f77b4"
set title "cold (wall time, median of 7 rounds)"
$cold << END
"readdir+statx" 9217
"inode+statx" 9159
"ring+statx" 9020
"bulk basic" 9653
"bulk EXTENDED" 10042
END
plot $cold using 2:xtic(1) lc rgb "#d62728"
unset multiplot
