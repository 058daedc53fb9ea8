/* cli_os.h - the CLI's one platform file (cli_os.c): what POSIX and Windows do differently, so no
   command's logic branches on the system. On Windows the CLI runs in the UTF-8 code page (its
   manifest, tools/asmstore.manifest; Windows 10 1903 and later), so its char paths and arguments
   are UTF-8 for the C library as on POSIX; the header converts its own paths to UTF-16 itself. */
#ifndef ASMSTORE_CLI_OS_H
#define ASMSTORE_CLI_OS_H
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

/* a path component's longest name, where the system does not say (Windows) */
#ifndef NAME_MAX
#define NAME_MAX 255
#endif
/* a full disk quota, where the system has no errno of its own for it (Windows) */
#ifndef EDQUOT
#define EDQUOT ENOSPC
#endif

/* Once, first in main: Windows' stdout and stderr binary (the bytes Linux writes) and the console
   UTF-8. */
void cli_os_init(void);
/* mkdir(path, 0755); 0 or -1 with errno. */
int cli_os_mkdir(const char *path);
/* mkdtemp: a new directory named tmpl with its trailing XXXXXX made unique; tmpl, or NULL. */
char *cli_os_mkdtemp(char *tmpl);
/* fnmatch(pattern, name, 0): 0 when name matches ('*', '?', '[...]', '\' quoting), else nonzero. */
int cli_os_fnmatch(const char *pattern, const char *name);
/* fchmod (umask does not apply); Windows has no mode bits to set (0). 0 or -1 with errno. Here, not
   in the header's file calls, so that cli_fs.c needs only this file (the fuzzers
   build it without the CLI's common part). */
int cli_os_set_mode(int fd, unsigned mode);
/* lstat: never through a symlink (Windows: a reparse point is neither a directory nor a file). */
int cli_os_lstat(const char *path, struct stat *st);
/* What cli_os_lstat says of a symlink (Windows: of a reparse point: no file type at all). */
/* and a mode standing for a symlink / for something that is neither file, directory nor link */
#ifdef _WIN32
#define CLI_OS_ISLNK(mode) (((mode) & _S_IFMT) == 0)
#define CLI_OS_MODE_LINK 0
#define CLI_OS_MODE_OTHER _S_IFCHR
#else
#define CLI_OS_ISLNK(mode) S_ISLNK(mode)
#define CLI_OS_MODE_LINK S_IFLNK
#define CLI_OS_MODE_OTHER S_IFIFO
#endif
/* A path naming the open descriptor fd itself, into buf: Linux's /proc/self/fd/N, the /dev/fd/N
   of macOS and the BSDs. */
void cli_os_fd_path(int fd, char *buf, size_t size);
/* Is stderr a terminal (progress is shown only there)? */
int cli_os_stderr_is_tty(void);
/* Milliseconds of a monotonic clock, for durations. */
double cli_now_ms(void);
/* open_memstream: a stream whose text cli_os_memstream_close hands over (*text malloc'd, NUL
   ended, *len bytes); NULL with errno. close: 0, or EOF (then *text is NULL). */
FILE *cli_os_memstream(char **text, size_t *len);
int cli_os_memstream_close(FILE *f, char **text, size_t *len);

/* The SHA-256 (32 bytes into md) or SHA-1 (20: a public key's token) of p[0..n): libcrypto
   (ASMSTORE_CLI_CRYPTO, required) or, on Windows, the system's CNG (bcrypt). 0, or -1 (it failed:
   only for want of memory). */
typedef enum cli_os_hash { CLI_OS_SHA1, CLI_OS_SHA256 } cli_os_hash;
int cli_os_digest(cli_os_hash kind, const void *p, size_t n, unsigned char *md);
/* Which crypto library that is, for --version: "OpenSSL 3.0.19 27 Jan 2026", "Windows CNG". */
const char *cli_os_crypto_version(void);

/* The signing primitives of repack --sign-key (cli_sign.c lays the APK signing block out around
   them; cli_os_sign.c): libcrypto, or on Windows the system's CNG (bcrypt) with the key's DER read
   here (Wine's crypt32 decodes no PKCS#8 or EC private key). A key is RSA or EC, read from PEM
   (PKCS#8 "PRIVATE KEY", or "RSA PRIVATE KEY", "EC PRIVATE KEY"; never an encrypted one); a
   certificate from PEM "CERTIFICATE". */
typedef struct cli_os_key cli_os_key;
typedef struct cli_os_cert cli_os_cert;
/* What a key is, for the checks Android's verifiers make (cli_sign.c): RSA (its modulus' bits,
   its public exponent's bits and oddness) or EC (its curve: "prime256v1", "secp384r1",
   "secp521r1", or another name or dotted OID). */
typedef struct cli_os_key_facts {
    int rsa, bits, exponent_bits, exponent_odd;
    char curve[80];
} cli_os_key_facts;
/* text[0..n): 0 with *out, or -1 (none there: cli_os_sign_reason says why). */
int cli_os_key_read(const unsigned char *text, size_t n, cli_os_key **out);
int cli_os_cert_read(const unsigned char *text, size_t n, cli_os_cert **out);
/* 0 with *facts, or -1 (neither RSA nor EC). */
int cli_os_key_facts_of(const cli_os_key *k, cli_os_key_facts *facts);
/* Is cert the certificate of k (their public keys the same)? 1 or 0; -1 when it cannot be told
   here (cli_os_sign_reason: a curve this system's CNG lacks). Makes k ready to sign. */
int cli_os_key_pairs(cli_os_key *k, const cli_os_cert *cert);
/* The certificate's DER, its SubjectPublicKeyInfo's DER: owned by cert. */
void cli_os_cert_der(const cli_os_cert *cert, const unsigned char **der, size_t *size);
void cli_os_cert_spki(const cli_os_cert *cert, const unsigned char **der, size_t *size);
/* k's signature of p[0..n) with SHA-256 (RSA: PKCS#1 v1.5; EC: DER, as the APK scheme takes), a
   malloc'd *sig of *size bytes. 0, or -1 (cli_os_sign_reason says why). */
int cli_os_sign(const cli_os_key *k, const unsigned char *p, size_t n, unsigned char **sig,
                size_t *size);
/* Why the last of these failed (never NULL), and that reason forgotten. */
const char *cli_os_sign_reason(void);
void cli_os_key_free(cli_os_key *k);
void cli_os_cert_free(cli_os_cert *cert);

/* Why the path component name[0..len) would be something other than that file's name here, or
   NULL. POSIX: never (only '/' and NUL, which cli_fs.c refuses). Windows: a ':' (a drive, or an
   NTFS stream of another file), a trailing dot or space (dropped: another file's name), a device
   name (CON, PRN, AUX, NUL, COM0-9, LPT0-9, with any extension, in any case), a character no
   Windows name holds (<>"|?* and controls). */
const char *cli_os_name_unsafe(const char *name, size_t len);

/* Directory descriptors (cli_fs.c): each step from a directory opened without following a
   symlink. POSIX: openat and its family; Windows: the directory held open without share-delete
   (it cannot be renamed or replaced while held) and each name refused when it is a reparse
   point. -1 with errno on failure. */
int cli_os_dir_open(const char *path);
int cli_os_dir_open_at(int dirfd, const char *name);
int cli_os_mkdir_at(int dirfd, const char *name);
/* A file in dirfd, never through a symlink: to read (create 0), or a new one to write (create 1:
   O_EXCL, mode 0600). */
int cli_os_file_open_at(int dirfd, const char *name, int create);
/* Renames from over to within dirfd (to replaced when it exists, never followed). */
int cli_os_rename_at(int dirfd, const char *from, const char *to);
/* Removes name (a directory when dir, only when empty). */
int cli_os_unlink_at(int dirfd, const char *name, int dir);
int cli_os_dir_dup(int dirfd);
void cli_os_dir_close(int dirfd);

/* Why command cannot run here (Windows: load and cache, device-side), or NULL. */
const char *cli_os_unavailable(const char *command);
#endif
