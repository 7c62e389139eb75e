#include <stdio.h>
#include <stdlib.h>
#include <xstat.h>

int
main(int argc, char *argv[])
{
    struct xstat_parameters params = {
        XSTAT_REQUEST_INO | XSTAT_REQUEST_SIZE | XSTAT_REQUEST_MODE
        | XSTAT_REQUEST_BTIME | XSTAT_REQUEST_GEN
        | XSTAT_REQUEST_DATA_VERSION
    };
    struct xstat  x;
    ssize_t       n;

    if (argc != 2) {
        fprintf(stderr, "Usage: %s FILE\n", argv[0]);
        exit(EXIT_FAILURE);
    }

    n = xstat(AT_FDCWD, argv[1], AT_SYMLINK_NOFOLLOW, &params,
              &x, sizeof(x));
    if (n == -1) {
        perror("xstat");
        exit(EXIT_FAILURE);
    }
    if ((size_t) n > sizeof(x))
        printf("%zd bytes of results, the first %zu shown\n",
               n, sizeof(x));

    printf("ino: %llu\n", x.st_ino);
    printf("size: %llu\n", x.st_size);
    printf("mode: %o\n", x.st_mode);

    if (x.st_result_mask & XSTAT_REQUEST_BTIME)
        printf("btime: %lld.%09llu\n",
               x.st_btim.tv_sec, x.st_btim.tv_nsec);
    else
        printf("btime: unavailable\n");

    if (x.st_result_mask & XSTAT_REQUEST_GEN)
        printf("gen: %llu\n", x.st_gen);
    else
        printf("gen: unavailable\n");

    if (x.st_result_mask & XSTAT_REQUEST_DATA_VERSION)
        printf("data version: %llu\n", x.st_data_version);
    else
        printf("data version: unavailable\n");

    exit(EXIT_SUCCESS);
}
