/* tests/lib/extract_race_swap.c - for t_cli_extract_race.sh: exchanges the names A (a directory) and B (a
   symlink to a directory outside) with renameat2(RENAME_EXCHANGE) as fast as it can for SECONDS
   seconds, so A is a real directory half the time and a symlink to outside the other half; then
   leaves the directory at A and prints how many swaps it made.
   usage: extract_race_swap A B SECONDS */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

int main(int argc, char **argv) {
    struct timespec now, end;
    struct stat st;
    unsigned long swaps = 0;
    if (argc != 4) { fputs("usage: extract_race_swap A B SECONDS\n", stderr); return 2; }
    clock_gettime(CLOCK_MONOTONIC, &end);
    end.tv_sec += atoi(argv[3]);
    do {
        if (renameat2(AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE) != 0) { perror("renameat2"); return 1; }
        swaps++;
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while (now.tv_sec < end.tv_sec || (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
    if (lstat(argv[1], &st) == 0 && !S_ISDIR(st.st_mode) &&
        renameat2(AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE) != 0) { perror("renameat2"); return 1; }
    printf("%lu\n", swaps);
    return 0;
}
