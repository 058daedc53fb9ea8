/* fuzz_main.c - plain main() for the libFuzzer harnesses, so gcc + ASan/UBSan can replay files:
     fuzz_x-replay FILE|DIR...   runs LLVMFuzzerTestOneInput once per file (directories: every file in them)
   Ends with one line "N passed, N failed" (a crash aborts the process, which the runner counts). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replayed, unreadable;

static void replay_file(const char *path) {
    FILE *f = fopen(path, "rb");
    unsigned char *buf;
    long n;
    if (!f) { unreadable++; return; }
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = (unsigned char *)malloc(n > 0 ? (size_t)n : 1);
    if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) { unreadable++; free(buf); fclose(f); return; }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, (size_t)n);
    free(buf);
    replayed++;
}

static void replay(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) { unreadable++; return; }
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *de;
        char sub[4096];
        if (!d) { unreadable++; return; }
        while ((de = readdir(d)) != NULL) {
            if (de->d_name[0] == '.') continue;
            snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
            replay(sub);
        }
        closedir(d);
    } else {
        replay_file(path);
    }
}

int main(int argc, char **argv) {
    int i;
    for (i = 1; i < argc; i++) replay(argv[i]);
    printf("replayed %d inputs\n", replayed);
    printf("%d passed, %d failed\n", replayed, unreadable);
    return unreadable ? 1 : 0;
}
