# xstat -r against find, bfs and the floor (getdents64 + statx), the
# fields of find -printf '%i %s %T@ %B@', run 3 of bench/walk-run.sh in
# bench/RESULTS.md: gnuplot bench/walk.gnuplot from the source tree
# writes bench/walk.png.
set terminal pngcairo size 900,480 font ",10" noenhanced
set output "bench/walk.png"
set title "xstat -r -c '%i %s %Y %W' and its peers, median ms (lower is better)"
set ylabel "ms"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set key outside right top vertical
set grid ytics
set yrange [0:*]
set xtics rotate by -20
$walk << END
"find -printf" 1664.7 559.4 1330.2 494.4
"bfs -printf" 1259.7 440.4 1182.3 445.9
"xstat -r (4 threads)" 1143.9 391.9 1223.4 445.4
"xstat -r --threads=1" 1110.7 391.8 1302.1 435.6
"floor, 1 thread" 951.1 299.7 892.7 312.8
END
plot $walk using 2:xtic(1) title "ext4 100x1000, wall" lc rgb "#1f77b4", \
     '' using 3 title "ext4 100x1000, CPU" lc rgb "#aec7e8", \
     '' using 4 title "Linux 6.1 tree, wall" lc rgb "#d62728", \
     '' using 5 title "Linux 6.1 tree, CPU" lc rgb "#ff9896"
