/* cli_os.c - the CLI's platform file (cli_os.h): POSIX, or Windows (mingw-w64). */
#include "cli.h"
#include "cli_commands.h"
#include "cli_os.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef _WIN32
#include <direct.h>
#include <io.h>
#include <windows.h>
#include <bcrypt.h>
#else
#include <fnmatch.h>
#include <time.h>
#include <unistd.h>
#ifndef ASMSTORE_CLI_CRYPTO /* the Makefile, CMake and setup.py stop before this, naming it */
#error "the CLI needs libcrypto (OpenSSL) for SHA-256: install libssl-dev, build with -DASMSTORE_CLI_CRYPTO"
#endif
#include <openssl/evp.h>
#endif

#ifndef _WIN32
/* >>posix -------------------------------------------------------------------------------------- */
#define CLI_DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

void cli_os_init(void) {}
int cli_os_mkdir(const char *path) {
    return mkdir(path, 0755);
}
char *cli_os_mkdtemp(char *tmpl) {
    return mkdtemp(tmpl);
}
int cli_os_fnmatch(const char *pattern, const char *name) {
    return fnmatch(pattern, name, 0);
}
int cli_os_lstat(const char *path, struct stat *st) {
    return lstat(path, st);
}
const char *cli_os_name_unsafe(const char *name, size_t len) {
    (void)name;
    (void)len;
    return NULL;
}
int cli_os_set_mode(int fd, unsigned mode) {
    return fchmod(fd, (mode_t)mode);
}
int cli_os_stderr_is_tty(void) {
    return isatty(2);
}
void cli_os_fd_path(int fd, char *buf, size_t size) {
#ifdef __linux__
    snprintf(buf, size, "/proc/self/fd/%d", fd);
#else
    snprintf(buf, size, "/dev/fd/%d", fd);
#endif
}
double cli_now_ms(void) {
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
int cli_os_digest(cli_os_hash kind, const void *p, size_t n, unsigned char *md) {
    unsigned len = 0, want = kind == CLI_OS_SHA256 ? 32u : 20u;
    return EVP_Digest(n ? p : "", n, md, &len, kind == CLI_OS_SHA256 ? EVP_sha256() : EVP_sha1(),
                      NULL) == 1 && len == want
               ? 0
               : -1;
}
const char *cli_os_crypto_version(void) {
    return OpenSSL_version(OPENSSL_VERSION);
}
FILE *cli_os_memstream(char **text, size_t *len) {
    return open_memstream(text, len);
}
int cli_os_memstream_close(FILE *f, char **text, size_t *len) {
    (void)text;
    (void)len;
    return fclose(f);
}

int cli_os_dir_open(const char *path) {
    return open(path, CLI_DIR_FLAGS);
}
int cli_os_dir_open_at(int dirfd, const char *name) {
    return openat(dirfd, name, CLI_DIR_FLAGS);
}
int cli_os_mkdir_at(int dirfd, const char *name) {
    return mkdirat(dirfd, name, 0755);
}
int cli_os_file_open_at(int dirfd, const char *name, int create) {
    if (create)
        return openat(dirfd, name, O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_WRONLY, 0600);
    return openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
}
int cli_os_rename_at(int dirfd, const char *from, const char *to) {
    return renameat(dirfd, from, dirfd, to);
}
int cli_os_unlink_at(int dirfd, const char *name, int dir) {
    return unlinkat(dirfd, name, dir ? AT_REMOVEDIR : 0);
}
int cli_os_dir_dup(int dirfd) {
    return dup(dirfd);
}
void cli_os_dir_close(int dirfd) {
    close(dirfd);
}
const char *cli_os_unavailable(const char *command) {
    (void)command;
    return NULL;
}

#else
/* >>windows ------------------------------------------------------------------------------------ */
void cli_os_init(void) {
    (void)_setmode(_fileno(stdout), _O_BINARY);
    (void)_setmode(_fileno(stderr), _O_BINARY);
    SetConsoleOutputCP(CP_UTF8);
}
int cli_os_mkdir(const char *path) {
    return _mkdir(path);
}

/* Is path (or a name in it) a reparse point: a symlink or junction (-1: not there)? */
static int is_reparse(const char *path) {
    DWORD a = GetFileAttributesA(path);
    if (a == INVALID_FILE_ATTRIBUTES)
        return -1;
    return (a & FILE_ATTRIBUTE_REPARSE_POINT) != 0;
}

char *cli_os_mkdtemp(char *tmpl) {
    static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    char *x = tmpl + strlen(tmpl) - 6;
    unsigned long long s = (unsigned long long)GetTickCount() ^
                           ((unsigned long long)GetCurrentProcessId() << 32) ^ (uintptr_t)tmpl;
    int tries, i;

    for (tries = 0; tries < 100; tries++) {
        for (i = 0; i < 6; i++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            x[i] = digits[(s >> 33) % 36u];
        }
        if (_mkdir(tmpl) == 0)
            return tmpl;
        if (errno != EEXIST)
            return NULL;
    }
    return NULL;
}

/* fnmatch's grammar, no flags: '*' any run, '?' one byte, '[...]' a set ('!' or '^' negates, a-z
   ranges), '\' quotes the next byte. set_match: c in the set at *pp (after its '['): 1 or 0, *pp
   past the ']'; -1 when there is no ']' (then '[' is an ordinary byte). */
static int set_match(const char **pp, unsigned char c) {
    const char *p = *pp;
    int neg = *p == '!' || *p == '^', hit = 0;

    if (neg)
        p++;
    do {
        unsigned char lo = (unsigned char)*p++, hi = lo;
        if (!lo)
            return -1; /* no closing ']': not a set */
        if (*p == '-' && p[1] && p[1] != ']') {
            hi = (unsigned char)p[1];
            p += 2;
        }
        hit |= c >= lo && c <= hi;
    } while (*p != ']');
    *pp = p + 1;
    return hit != neg;
}
/* Does the one token at *p ('?', a set, a byte) match c? 1 or 0, *p past the token. */
static int token_match(const char **pp, unsigned char c) {
    const char *p = *pp, *q = p + 1;
    int m;

    if (*p == '?') {
        *pp = q;
        return 1;
    }
    if (*p == '[' && (m = set_match(&q, c)) >= 0) {
        *pp = q;
        return m;
    }
    if (*p == '\\' && p[1])
        p++;
    *pp = p + 1;
    return (unsigned char)*p == c;
}
int cli_os_fnmatch(const char *pattern, const char *name) {
    const char *p = pattern, *n = name, *star = NULL, *resume = NULL, *q;

    while (*n) {
        if (*p == '*') {
            star = ++p;
            resume = n;
            continue;
        }
        q = p;
        if (*p && token_match(&q, (unsigned char)*n)) {
            p = q;
            n++;
        } else if (star) {
            p = star;
            n = ++resume;
        } else {
            return 1;
        }
    }
    while (*p == '*')
        p++;
    return *p != 0;
}

/* Is name[0..len) a DOS device (its part before the first dot, trailing spaces dropped)? */
static int is_device_name(const char *name, size_t len) {
    static const char *const devices[] = {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"};
    size_t n = 0, i;

    while (n < len && name[n] != '.')
        n++;
    while (n > 0 && name[n - 1] == ' ')
        n--;
    for (i = 0; i < sizeof devices / sizeof *devices; i++)
        if (strlen(devices[i]) == n && _strnicmp(name, devices[i], n) == 0)
            return 1;
    /* COM0-9 and LPT0-9, and with the superscripts 1-3 (UTF-8 C2 B9, C2 B2, C2 B3) */
    if ((n == 4 || n == 5) && (!_strnicmp(name, "COM", 3) || !_strnicmp(name, "LPT", 3)))
        return n == 4 ? name[3] >= '0' && name[3] <= '9'
                      : (unsigned char)name[3] == 0xC2 &&
                            ((unsigned char)name[4] == 0xB9 || (unsigned char)name[4] == 0xB2 ||
                             (unsigned char)name[4] == 0xB3);
    return 0;
}
const char *cli_os_name_unsafe(const char *name, size_t len) {
    size_t i;

    if (len == 0)
        return NULL; /* cli_unsafe_name refuses an empty component itself */
    if (memchr(name, ':', len))
        return "a ':' in it (on Windows a drive letter or an NTFS stream of another file)";
    if (name[len - 1] == '.' || name[len - 1] == ' ')
        return "a trailing dot or space (Windows drops it: the name of another file)";
    if (is_device_name(name, len))
        return "a Windows device name (CON, PRN, AUX, NUL, COM0-9, LPT0-9, any extension)";
    for (i = 0; i < len; i++)
        if ((unsigned char)name[i] < 0x20 || strchr("<>\"|?*", name[i]))
            return "a character no Windows file name holds (<>\"|?* or a control character)";
    return NULL;
}
int cli_os_lstat(const char *path, struct stat *st) {
    int r = is_reparse(path);
    if (r < 0 || stat(path, st) != 0) {
        errno = ENOENT;
        return -1;
    }
    if (r)
        st->st_mode = (unsigned short)(st->st_mode & ~_S_IFMT); /* neither file nor directory */
    return 0;
}
int cli_os_stderr_is_tty(void) {
    return _isatty(2);
}
double cli_now_ms(void) {
    return (double)GetTickCount64();
}
int cli_os_set_mode(int fd, unsigned mode) {
    (void)fd;
    (void)mode;
    return 0;
}
const char *cli_os_crypto_version(void) {
    return "Windows CNG";
}
/* CNG's SHA-1 and SHA-256 (Windows Vista and later; Wine 8 has them): the provider, one hash
   object fed in chunks a ULONG counts. */
int cli_os_digest(cli_os_hash kind, const void *p, size_t n, unsigned char *md) {
    BCRYPT_ALG_HANDLE alg;
    BCRYPT_HASH_HANDLE h;
    const unsigned char *b = n ? (const unsigned char *)p : (const unsigned char *)"";
    NTSTATUS s;

    if (BCryptOpenAlgorithmProvider(&alg, kind == CLI_OS_SHA256 ? BCRYPT_SHA256_ALGORITHM
                                                                : BCRYPT_SHA1_ALGORITHM,
                                    NULL, 0) != 0)
        return -1;
    s = BCryptCreateHash(alg, &h, NULL, 0, NULL, 0, 0);
    if (s == 0) {
        do {
            ULONG part = (ULONG)(n > 0x40000000u ? 0x40000000u : n);
            s = BCryptHashData(h, (PUCHAR)(uintptr_t)b, part, 0);
            b += part;
            n -= part;
        } while (s == 0 && n > 0);
        if (s == 0)
            s = BCryptFinishHash(h, md, kind == CLI_OS_SHA256 ? 32 : 20, 0);
        BCryptDestroyHash(h);
    }
    BCryptCloseAlgorithmProvider(alg, 0);
    return s == 0 ? 0 : -1;
}

/* The stream is a temp file deleted on close ("D"); its bytes are read back at close. */
FILE *cli_os_memstream(char **text, size_t *len) {
    char dir[MAX_PATH], name[MAX_PATH];

    *text = NULL;
    *len = 0;
    if (!GetTempPathA(sizeof dir, dir) || !GetTempFileNameA(dir, "asm", 0, name)) {
        errno = EIO;
        return NULL;
    }
    return fopen(name, "w+bD");
}
int cli_os_memstream_close(FILE *f, char **text, size_t *len) {
    long n;
    int bad = fflush(f) != 0 || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
              fseek(f, 0, SEEK_SET) != 0 || !(*text = (char *)malloc((size_t)n + 1)) ||
              fread(*text, 1, (size_t)n, f) != (size_t)n;

    if (bad) {
        free(*text);
        *text = NULL;
    } else {
        (*text)[n] = 0;
        *len = (size_t)n;
    }
    return fclose(f) != 0 || bad ? EOF : 0;
}

/* Directory descriptors: slots of a table, each the directory's path and its handle, held open
   without FILE_SHARE_DELETE so that it stays the directory it was while we write under it. */
#define CLI_OS_DIRS 64
#define CLI_OS_DIR_BASE 1000
static struct {
    char *path;
    HANDLE h;
} cli_os_dirs[CLI_OS_DIRS];

static const char *dir_path(int dirfd) {
    int i = dirfd - CLI_OS_DIR_BASE;
    return i >= 0 && i < CLI_OS_DIRS ? cli_os_dirs[i].path : NULL;
}
/* dirfd's path joined with name (malloc'd), or NULL with errno. */
static char *join(int dirfd, const char *name) {
    const char *d = dir_path(dirfd);
    size_t a = d ? strlen(d) : 0, b = strlen(name);
    char *p = d ? (char *)malloc(a + b + 2) : NULL;

    if (!p) {
        errno = d ? ENOMEM : EBADF;
        return NULL;
    }
    memcpy(p, d, a);
    p[a] = '/';
    memcpy(p + a + 1, name, b + 1);
    return p;
}

int cli_os_dir_open(const char *path) {
    int i, r = is_reparse(path);
    HANDLE h;

    if (r != 0) {
        errno = r < 0 ? ENOENT : ELOOP;
        return -1;
    }
    for (i = 0; i < CLI_OS_DIRS && cli_os_dirs[i].path; i++) {
    }
    if (i == CLI_OS_DIRS) {
        errno = EMFILE;
        return -1;
    }
    h = CreateFileA(path, FILE_LIST_DIRECTORY, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                    OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        errno = asmstore_win32_errno(GetLastError());
        return -1;
    }
    if (!(GetFileAttributesA(path) & FILE_ATTRIBUTE_DIRECTORY))
        errno = ENOTDIR;
    else if (!(cli_os_dirs[i].path = strdup(path)))
        errno = ENOMEM;
    else {
        cli_os_dirs[i].h = h;
        return CLI_OS_DIR_BASE + i;
    }
    CloseHandle(h);
    return -1;
}
/* op(dirfd's path / name): its result, errno as op left it. */
static int at(int dirfd, const char *name, int (*op)(const char *)) {
    char *p = join(dirfd, name);
    int rc = p ? op(p) : -1, e = errno;
    free(p);
    errno = e;
    return rc;
}
int cli_os_dir_open_at(int dirfd, const char *name) {
    return at(dirfd, name, cli_os_dir_open);
}
int cli_os_mkdir_at(int dirfd, const char *name) {
    return at(dirfd, name, _mkdir);
}
int cli_os_file_open_at(int dirfd, const char *name, int create) {
    char *p = join(dirfd, name);
    int fd = -1, e;

    if (p && !create && is_reparse(p) == 1)
        errno = ELOOP;
    else if (p)
        fd = create ? _open(p, _O_WRONLY | _O_CREAT | _O_EXCL | _O_BINARY | _O_NOINHERIT,
                            _S_IREAD | _S_IWRITE)
                    : _open(p, _O_RDONLY | _O_BINARY | _O_NOINHERIT);
    e = errno;
    free(p);
    errno = e;
    return fd;
}
int cli_os_rename_at(int dirfd, const char *from, const char *to) {
    char *a = join(dirfd, from), *b = a ? join(dirfd, to) : NULL;
    int rc = b ? asmstore_file_replace(a, b) : -1, e = errno;
    free(a);
    free(b);
    errno = e;
    return rc;
}
int cli_os_unlink_at(int dirfd, const char *name, int dir) {
    return at(dirfd, name, dir ? _rmdir : _unlink);
}
int cli_os_dir_dup(int dirfd) {
    const char *d = dir_path(dirfd);
    if (!d) {
        errno = EBADF;
        return -1;
    }
    return cli_os_dir_open(d);
}
void cli_os_dir_close(int dirfd) {
    int i = dirfd - CLI_OS_DIR_BASE;
    if (i < 0 || i >= CLI_OS_DIRS || !cli_os_dirs[i].path)
        return;
    CloseHandle(cli_os_dirs[i].h);
    free(cli_os_dirs[i].path);
    cli_os_dirs[i].path = NULL;
}

/* load and cache run asmstore_cache.h, a device-side library (Linux and Android): not built here.
   main says so before their options are read (cli_os_unavailable); the table's entries point
   here. */
const char *cli_os_unavailable(const char *command) {
    if (!strcmp(command, "load") || !strcmp(command, "cache"))
        return "not available on Windows (the loader and the cache are device-side: Linux and "
               "Android)";
    return NULL;
}
const cli_option cli_load_options[] = {CLI_OPTIONS_END};
const cli_option cli_cache_options[] = {CLI_OPTIONS_END};
int cli_cmd_load(int argc, char **argv) {
    (void)argc;
    (void)argv;
    return 2;
}
int cli_cmd_cache(int argc, char **argv) {
    (void)argc;
    (void)argv;
    return 2;
}
#endif
