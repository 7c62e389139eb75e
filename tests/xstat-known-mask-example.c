#include <stdio.h>
#include <stdlib.h>
#include <xstat.h>

int
main(void)
{
    unsigned long long known = xstat_known_mask();
    unsigned long long too_new = XSTAT_REQUEST__ALL_STATS & ~known;

    printf("header: libxstat %d.%d.%d, request bits %#llx\n",
           LIBXSTAT_VERSION_MAJOR, LIBXSTAT_VERSION_MINOR,
           LIBXSTAT_VERSION_MICRO, XSTAT_REQUEST__ALL_STATS);
    printf("library: %#llx\n", known);
    if (too_new != 0)
        printf("library too old for: %#llx\n", too_new);
    else
        printf("library too old for: none\n");

    exit(EXIT_SUCCESS);
}
