/* tests/lib/standin_libc.c - a stand-in for bionic's libc.so, so that glibc's dlopen loads an
   x86_64 libxamarin-app.so (it needs libc.so and imports only puts@LIBC and abort@LIBC). Built by
   t_cli_app.sh with the version script LIBC { global: puts; abort; local: *; }, soname libc.so. */
#include <unistd.h>

int puts(const char *s);
void abort(void) __attribute__((noreturn));

int puts(const char *s) {
    size_t n = 0;

    while (s[n])
        n++;
    if (write(1, s, n) < 0 || write(1, "\n", 1) < 0)
        return -1;
    return 1;
}

void abort(void) {
    _exit(134);
}
