#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <xstat.h>

int
main(int argc, char *argv[])
{
    struct xstat_parameters params = {
        XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_BTIME
    };
    union xstat_buffer  b;
    struct timespec     birth;
    struct stat         sb;

    if (argc != 2) {
        fprintf(stderr, "Usage: %s FILE\n", argv[0]);
        exit(EXIT_FAILURE);
    }

    if (xstat(AT_FDCWD, argv[1], AT_SYMLINK_NOFOLLOW, &params,
              &b.x, sizeof(b)) == -1) {
        perror("xstat");
        exit(EXIT_FAILURE);
    }
    if (xstat_to_stat(&b.x, &sb) == -1) {
        perror("xstat_to_stat");
        exit(EXIT_FAILURE);
    }

    printf("dev: %ju\n", (uintmax_t) sb.st_dev);
    printf("ino: %ju\n", (uintmax_t) sb.st_ino);
    printf("mode: %jo\n", (uintmax_t) sb.st_mode);
    printf("rdev: %ju\n", (uintmax_t) sb.st_rdev);
    printf("size: %jd\n", (intmax_t) sb.st_size);
    printf("mtime: %jd.%09ld\n", (intmax_t) sb.st_mtim.tv_sec,
           (long) sb.st_mtim.tv_nsec);

    if ((b.x.st_result_mask & XSTAT_REQUEST_BTIME)
        && xstat_to_timespec(&b.x.st_btim, &birth) == 0)
        printf("btime: %jd.%09ld\n", (intmax_t) birth.tv_sec,
               (long) birth.tv_nsec);
    else
        printf("btime: unavailable\n");

    exit(EXIT_SUCCESS);
}
