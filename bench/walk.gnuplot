# xstat -r against find and bfs, 100 x 1,000 files on ext4 (bench/RESULTS.md,
# runs 2 and 3 of bench/walk-run.sh): gnuplot bench/walk.gnuplot from the
# source tree writes bench/walk.png.
set terminal pngcairo size 900,480 font ",10" noenhanced
set output "bench/walk.png"
set title "Walking 100,000 files on ext4, median wall time (lower is better)"
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
"find" 421 415 832 801
"bfs" 371 374 784 752
"xstat -r, 1 thread" 465 377 983 884
"xstat -r, 2 threads" 257 255 492 502
"EXTENDED, 1 thread" 340 347 674 698
"EXTENDED, 2 threads" 268 240 485 440
END
plot $walk using 2:xtic(1) title "hot, run 2" lc rgb "#1f77b4", \
     '' using 3 title "hot, run 3" lc rgb "#aec7e8", \
     '' using 4 title "cold, run 2" lc rgb "#d62728", \
     '' using 5 title "cold, run 3" lc rgb "#ff9896"
