#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <sys/statvfs.h>
#include <xstat.h>

/* What identifies the file, and its token, as kept in the state file. */
struct seen {
    unsigned long       fsid;
    unsigned long long  ino, gen, token;
    long long           btime_sec;
    unsigned long long  btime_nsec;
};

int
main(int argc, char *argv[])
{
    struct xstat_parameters params = {
        XSTAT_REQUEST_INO | XSTAT_REQUEST_GEN | XSTAT_REQUEST_BTIME
        | XSTAT_REQUEST_CHANGE_TOKEN
    };
    const struct xstat_change_token  *tok;
    union xstat_buffer               b;
    struct seen                      now, then;
    struct statvfs                   vfs;
    ssize_t                          n;
    FILE                             *f;
    int                              known = 0;

    if (argc != 3) {
        fprintf(stderr, "Usage: %s STATEFILE FILE\n", argv[0]);
        exit(EXIT_FAILURE);
    }

    n = xstat(AT_FDCWD, argv[2], 0, &params, &b.x, sizeof(b));
    if (n == -1 || statvfs(argv[2], &vfs) == -1) {
        perror(argv[2]);
        exit(EXIT_FAILURE);
    }
    tok = xstat_extra_change_token(&b.x, (size_t) n);
    if (tok == NULL) {
        fprintf(stderr, "%s: no change token\n", argv[2]);
        exit(EXIT_FAILURE);
    }

    /* Fields the result lacks are 0 in it: compared as such. */
    now.fsid = vfs.f_fsid;
    now.ino = b.x.st_ino;
    now.gen = b.x.st_gen;
    now.btime_sec = b.x.st_btim.tv_sec;
    now.btime_nsec = b.x.st_btim.tv_nsec;
    now.token = tok->token;

    f = fopen(argv[1], "r");
    if (f != NULL) {
        known = fscanf(f, "%lu %llu %llu %lld %llu %llu", &then.fsid,
                       &then.ino, &then.gen, &then.btime_sec,
                       &then.btime_nsec, &then.token) == 6;
        fclose(f);
    }

    if (!known)
        printf("new\n");
    else if (then.fsid != now.fsid || then.ino != now.ino
             || then.gen != now.gen || then.btime_sec != now.btime_sec
             || then.btime_nsec != now.btime_nsec)
        printf("replaced\n");
    else if (then.token != now.token)
        printf("changed\n");
    else if (tok->promise & XSTAT_PROMISE_EVERY_CHANGE)
        printf("unchanged\n");
    else
        printf("unchanged, as far as the timestamps tell\n");

    f = fopen(argv[1], "w");
    if (f == NULL || fprintf(f, "%lu %llu %llu %lld %llu %llu\n",
                             now.fsid, now.ino, now.gen, now.btime_sec,
                             now.btime_nsec, now.token) < 0
        || fclose(f) != 0) {
        perror(argv[1]);
        exit(EXIT_FAILURE);
    }
    exit(EXIT_SUCCESS);
}
