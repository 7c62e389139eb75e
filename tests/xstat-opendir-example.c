#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xstat.h>

static void
show(const char *what, int known, unsigned long long value)
{
    if (known)
        printf(" %s %llu", what, value);
    else
        printf(" %s unavailable", what);
}

int
main(int argc, char *argv[])
{
    struct xstat_parameters params = {
        XSTAT_REQUEST_INO | XSTAT_REQUEST_SIZE | XSTAT_REQUEST_GEN |
        XSTAT_REQUEST_DATA_VERSION
    };
    const struct xstat_dirent *e;
    struct xstat_dir *dir;
    int status = EXIT_SUCCESS;

    if (argc != 2) {
        fprintf(stderr, "usage: %s DIRECTORY\n", argv[0]);
        return EXIT_FAILURE;
    }
    dir = xstat_opendir(AT_FDCWD, argv[1], 0, &params);
    if (dir == NULL) {
        perror("xstat_opendir");
        return EXIT_FAILURE;
    }
    while ((e = xstat_readdir(dir)) != NULL) {
        const struct xstat *x = e->d_xstat;
        unsigned long long rm = x->st_result_mask;

        if (e->d_error) {
            printf("%s: %s\n", e->d_name, strerror(e->d_error));
            continue;
        }
        printf("%s:", e->d_name);
        show("ino", 1, x->st_ino);
        show("size", 1, x->st_size);
        show("gen", (rm & XSTAT_REQUEST_GEN) != 0, x->st_gen);
        show("dv", (rm & XSTAT_REQUEST_DATA_VERSION) != 0,
             x->st_data_version);
        putchar('\n');
    }
    xstat_closedir(dir);
    return status;
}
