/* cli_sign.c - APK Signature Scheme v2 + v3 signing block (cli_sign.h). The layout is the one
   source.android.com documents ("APK Signature Scheme v2", "v3") and apksig writes: the content
   digest is SHA-256 over 1 MiB chunks of the entries, the central directory and its end (whose
   CD offset names the block), one signer per scheme with the same digest, certificate and key;
   the v2 signed data carries the stripping-protection attribute that says a v3 signature is
   there too. Every primitive is the platform file's (cli_os.h: libcrypto, or Windows' CNG); this
   file only checks the key and lays the bytes out. */
#include "cli_sign.h"
#include "cli_os.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define SIGN_CHUNK 1048576u             /* the digest's chunk, as the scheme fixes it */
#define SIGN_PAGE 4096u                 /* apksigner pads the block to a multiple of it */
#define SIGN_V2_ID 0x7109871au          /* the v2 block's id in the signing block */
#define SIGN_V3_ID 0xf05368c0u          /* the v3 block's */
#define SIGN_PADDING_ID 0x42726577u     /* apksigner's padding pair */
#define SIGN_STRIPPING_ATTR 0xbeeff00du /* v2 signed data: "a v3 signature is there too" */
#define SIGN_V3_MIN_SDK 28u             /* Android 9, the first that reads v3 (v2 serves 24-27) */
#define SIGN_V3_MAX_SDK 0x7fffffffu
#define SIGN_RSA_SHA256 0x0103u   /* RSASSA-PKCS1-v1_5 with SHA2-256, chunked SHA2-256 digest */
#define SIGN_ECDSA_SHA256 0x0201u /* ECDSA with SHA2-256, chunked SHA2-256 digest */

struct cli_sign_key {
    cli_os_key *key;
    cli_os_cert *cert;
    const unsigned char *cert_der, *spki; /* DER, owned by cert: it, its SubjectPublicKeyInfo */
    size_t cert_size, spki_size;
    uint32_t algorithm; /* SIGN_RSA_SHA256 or SIGN_ECDSA_SHA256 */
};

/* >>the signer --------------------------------------------------------------------------------- */
/* The PEM private key (into k->key) or certificate (into k->cert, when key is 0) in path, a
   regular file (cli_map_file: a FIFO never blocks, a directory is named as one). 0 read; 1 none
   there, after saying `what` was not found and what the option takes (`takes`); 2 unreadable. */
static int read_pem(const char *path, const char *what, const char *takes, cli_sign_key *k,
                    int key) {
    const unsigned char *data;
    size_t size;
    int found;

    if (cli_map_file(path, &data, &size) != 0)
        return cli_fail_errno(path, key ? "read the signing key" : "read the signing certificate");
    found = key ? cli_os_key_read(data, size, &k->key) == 0
                : cli_os_cert_read(data, size, &k->cert) == 0;
    cli_unmap_file(data, size);
    if (!found)
        cli_error("%s: no %s found (%s). %s", path, what, cli_os_sign_reason(), takes);
    return found ? 0 : 1;
}

/* What Android's v2/v3 verifiers take, so a signed APK always installs: EC on P-256, P-384 or
   P-521 (apksigner's JCA refuses other curves, Android before 9 knows no more); RSA of 512 to 16384
   bits (the JCA's RSAKeyFactory limits) with an odd exponent of 2 to 33 bits (BoringSSL's
   rsa_check_public_key, which the device uses). 1 taken; 0 after saying why. */
static int android_takes(const cli_os_key_facts *f, const char *key_path) {
    static const char *const curves[] = {"prime256v1", "secp384r1", "secp521r1"};
    int i;

    if (!f->rsa) {
        for (i = 0; i < 3; i++)
            if (strcmp(f->curve, curves[i]) == 0)
                return 1;
        cli_error("%s: an EC key on curve %s, which Android's APK signature verifiers refuse: "
                  "sign with a key on P-256, P-384 or P-521 ('openssl genpkey -algorithm EC "
                  "-pkeyopt ec_paramgen_curve:P-256 -out key.pem' makes one)",
                  key_path, f->curve);
        return 0;
    }
    if (f->bits >= 512 && f->bits <= 16384 && f->exponent_bits >= 2 && f->exponent_bits <= 33 &&
        f->exponent_odd)
        return 1;
    cli_error("%s: an RSA key of %d bits with a public exponent of %d bits, which Android's APK "
              "signature verifiers refuse (they take 512 to 16384 bits, an odd exponent below "
              "2^33): sign with a usual RSA key ('openssl genpkey -algorithm RSA -pkeyopt "
              "rsa_keygen_bits:3072 -out key.pem' makes one)",
              key_path, f->bits, f->exponent_bits);
    return 0;
}

/* The pair's checks and DER forms into k. 0, or the exit code after saying why. */
static int describe(cli_sign_key *k, const char *key_path, const char *cert_path) {
    cli_os_key_facts facts;
    int paired;

    if (cli_os_key_facts_of(k->key, &facts) != 0) {
        cli_error("%s: the key is neither RSA nor EC: sign with an RSA or EC key", key_path);
        return 1;
    }
    if (!android_takes(&facts, key_path)) /* first: CNG has no other curve to check a pair on */
        return 1;
    paired = cli_os_key_pairs(k->key, k->cert);
    if (paired < 0) {
        cli_error("%s: cannot check it against %s: %s", key_path, cert_path, cli_os_sign_reason());
        return 2;
    }
    if (!paired) {
        cli_error("%s is not the certificate of the key in %s: give the certificate "
                  "made for that key ('openssl req -new -x509 -key %s -out cert.pem' makes one)",
                  cert_path, key_path, key_path);
        return 1;
    }
    k->algorithm = facts.rsa ? SIGN_RSA_SHA256 : SIGN_ECDSA_SHA256;
    cli_os_cert_der(k->cert, &k->cert_der, &k->cert_size);
    cli_os_cert_spki(k->cert, &k->spki, &k->spki_size);
    return 0;
}

int cli_sign_load(const char *key_path, const char *cert_path, cli_sign_key **out) {
    cli_sign_key *k = (cli_sign_key *)calloc(1, sizeof *k);
    int rc;

    *out = NULL;
    if (!k) {
        errno = ENOMEM;
        return cli_fail_errno(key_path, "read the signing key");
    }
    rc = read_pem(key_path, "PEM private key",
                  "--sign-key takes an RSA or EC key in PEM, PKCS#8 or traditional, without a "
                  "password: 'openssl pkey -in KEY -out plain.pem' writes one, 'openssl pkcs12 -in "
                  "KS.p12 -nocerts -nodes' takes it from a keystore",
                  k, 1);
    if (rc == 0)
        rc = read_pem(cert_path, "PEM X.509 certificate",
                      "--sign-cert takes the key's certificate in PEM ('openssl x509 -inform DER "
                      "-in CERT.der -out cert.pem' converts a DER one)",
                      k, 0);
    if (rc == 0)
        rc = describe(k, key_path, cert_path);
    if (rc == 0)
        *out = k;
    else
        cli_sign_free(k);
    return rc;
}

void cli_sign_free(cli_sign_key *k) {
    if (!k)
        return;
    cli_os_key_free(k->key);
    cli_os_cert_free(k->cert);
    free(k);
}

/* >>the content digest ------------------------------------------------------------------------- */
static uint64_t chunks(uint64_t n) {
    return (n + SIGN_CHUNK - 1) / SIGN_CHUNK;
}

/* The chunk digests of p[0..n) appended at *at: SHA-256 of 0xa5, the chunk's length (uint32 LE)
   and the chunk, each put together in buf (5 + SIGN_CHUNK bytes; p may be buf + 5). 1 ok, 0
   failed. */
static int section_digests(const unsigned char *p, size_t n, unsigned char *buf,
                           unsigned char **at) {
    size_t i;

    for (i = 0; i < n; i += SIGN_CHUNK) {
        size_t len = n - i < SIGN_CHUNK ? n - i : SIGN_CHUNK;

        buf[0] = 0xa5;
        cli_wr32(buf + 1, (uint32_t)len);
        if (p + i != buf + 5)
            memcpy(buf + 5, p + i, len);
        if (cli_os_digest(CLI_OS_SHA256, buf, 5 + len, *at) != 0)
            return 0;
        *at += 32;
    }
    return 1;
}

/* The chunk digests of the first n bytes of f, read through buf (5 + SIGN_CHUNK bytes). 1 ok, 0
   failed (errno set when reading did). */
static int file_digests(FILE *f, uint64_t n, unsigned char *buf, unsigned char **at) {
    if (fseeko(f, 0, SEEK_SET) != 0)
        return 0;
    while (n) {
        size_t len = n < SIGN_CHUNK ? (size_t)n : SIGN_CHUNK;

        if (fread(buf + 5, 1, len, f) != len) {
            if (!ferror(f))
                errno = EIO;
            return 0;
        }
        if (!section_digests(buf + 5, len, buf, at))
            return 0;
        n -= len;
    }
    return 1;
}

/* The scheme's top-level digest: SHA-256 of 0x5a, the chunk count (uint32 LE) and every chunk's
   digest in order (entries, central directory, its end), into out[32]. 0, or 2 after saying why. */
static int content_digest(const char *out, FILE *f, uint64_t entries, const unsigned char *cd,
                          size_t cd_size, const unsigned char *eocd, size_t eocd_size,
                          unsigned char *digest) {
    uint64_t count = chunks(entries) + chunks(cd_size) + chunks(eocd_size);
    unsigned char *all = (unsigned char *)malloc((size_t)(5 + 32 * count));
    unsigned char *buf = (unsigned char *)malloc(5 + SIGN_CHUNK), *at = all + 5;
    int ok;

    errno = 0;
    ok = all && buf && file_digests(f, entries, buf, &at) &&
         section_digests(cd, cd_size, buf, &at) && section_digests(eocd, eocd_size, buf, &at);
    if (ok) {
        all[0] = 0x5a;
        cli_wr32(all + 1, (uint32_t)count);
        ok = cli_os_digest(CLI_OS_SHA256, all, (size_t)(at - all), digest) == 0;
    }
    if (!ok && !errno && (!all || !buf))
        errno = ENOMEM;
    if (!ok && errno)
        cli_fail_errno(out, "read it back to sign it");
    else if (!ok)
        cli_error("%s: cannot digest it to sign it (SHA-256 failed)", out);
    free(buf);
    free(all);
    return ok ? 0 : 2;
}

/* >>the block ---------------------------------------------------------------------------------- */
/* The block being laid out; `failed` once memory ran out (every later put is then a no-op). */
typedef struct sign_buf {
    unsigned char *p;
    size_t n, cap;
    int failed;
} sign_buf;

static unsigned char *buf_room(sign_buf *b, size_t n) {
    if (!b->failed && b->cap - b->n < n) {
        size_t cap = b->cap ? b->cap : 4096;
        unsigned char *grown;

        while (cap - b->n < n)
            cap *= 2;
        if ((grown = (unsigned char *)realloc(b->p, cap)) != NULL) {
            b->p = grown;
            b->cap = cap;
        } else
            b->failed = 1;
    }
    if (b->failed)
        return NULL;
    b->n += n;
    return b->p + b->n - n;
}

static void buf_u32(sign_buf *b, uint32_t v) {
    unsigned char *p = buf_room(b, 4);

    if (p)
        cli_wr32(p, v);
}

static void buf_u64(sign_buf *b, uint64_t v) {
    unsigned char *p = buf_room(b, 8);

    if (p)
        cli_wr64(p, v);
}

/* uint32 length, then the bytes. */
static void buf_lp(sign_buf *b, const void *data, size_t n) {
    unsigned char *p = buf_room(b, 4 + n);

    if (p) {
        cli_wr32(p, (uint32_t)n);
        if (n) /* data is NULL for a signed data that ran out of memory */
            memcpy(p + 4, data, n);
    }
}

/* A uint32 length prefix for what follows, set by buf_close. */
static size_t buf_open(sign_buf *b) {
    buf_u32(b, 0);
    return b->n - 4;
}

static void buf_close(sign_buf *b, size_t at) {
    if (!b->failed)
        cli_wr32(b->p + at, (uint32_t)(b->n - at - 4));
}

/* The signed data: the digest, the certificate, (v3) the SDK range, the attributes (v2: the
   stripping protection naming scheme 3). */
static void signed_data(sign_buf *b, const cli_sign_key *k, const unsigned char *digest, int v3) {
    size_t seq = buf_open(b), one = buf_open(b);

    buf_u32(b, k->algorithm);
    buf_lp(b, digest, 32);
    buf_close(b, one);
    buf_close(b, seq);
    seq = buf_open(b);
    buf_lp(b, k->cert_der, k->cert_size);
    buf_close(b, seq);
    if (v3) {
        buf_u32(b, SIGN_V3_MIN_SDK);
        buf_u32(b, SIGN_V3_MAX_SDK);
    }
    seq = buf_open(b);
    if (!v3) {
        one = buf_open(b);
        buf_u32(b, SIGN_STRIPPING_ATTR);
        buf_u32(b, 3);
        buf_close(b, one);
    }
    buf_close(b, seq);
}

/* The platform's signature (SHA-256; PKCS#1 v1.5 for RSA, DER for ECDSA) of p[0..n) into b,
   length-prefixed. 1 ok, 0 failed. */
static int buf_signature(sign_buf *b, const cli_sign_key *k, const unsigned char *p, size_t n) {
    unsigned char *sig = NULL;
    size_t len = 0;
    int ok = cli_os_sign(k->key, p, n, &sig, &len) == 0;

    if (ok)
        buf_lp(b, sig, len);
    free(sig);
    return ok;
}

/* One id-value pair: the scheme's block with its one signer. 1 ok, 0 the signature failed. */
static int scheme_pair(sign_buf *b, const cli_sign_key *k, const unsigned char *digest, int v3) {
    sign_buf sd = {NULL, 0, 0, 0};
    size_t pair = b->n, signers, signer, sigs, one;
    int ok;

    buf_u64(b, 0);
    buf_u32(b, v3 ? SIGN_V3_ID : SIGN_V2_ID);
    signers = buf_open(b);
    signer = buf_open(b);
    signed_data(&sd, k, digest, v3);
    buf_lp(b, sd.p, sd.n);
    if (v3) {
        buf_u32(b, SIGN_V3_MIN_SDK);
        buf_u32(b, SIGN_V3_MAX_SDK);
    }
    sigs = buf_open(b);
    one = buf_open(b);
    buf_u32(b, k->algorithm);
    ok = sd.failed || buf_signature(b, k, sd.p, sd.n);
    buf_close(b, one);
    buf_close(b, sigs);
    buf_lp(b, k->spki, k->spki_size);
    buf_close(b, signer);
    buf_close(b, signers);
    if (!b->failed)
        cli_wr64(b->p + pair, b->n - pair - 8);
    b->failed |= sd.failed;
    free(sd.p);
    return ok;
}

/* apksigner's padding pair, so the whole block (with the size and magic still to come) is a
   multiple of SIGN_PAGE; none when it already is. */
static void padding_pair(sign_buf *b) {
    size_t total = b->n + 8 + 16, pad;
    unsigned char *p;

    if (total % SIGN_PAGE == 0)
        return;
    pad = SIGN_PAGE - total % SIGN_PAGE;
    if (pad < 12)
        pad += SIGN_PAGE;
    buf_u64(b, pad - 8);
    buf_u32(b, SIGN_PADDING_ID);
    if ((p = buf_room(b, pad - 12)) != NULL)
        memset(p, 0, pad - 12);
}

int cli_sign_block(const cli_sign_key *k, const char *out, FILE *f, uint64_t entries,
                   const unsigned char *cd, size_t cd_size, const unsigned char *eocd,
                   size_t eocd_size, unsigned char **block, size_t *block_size) {
    static const char magic[16] = {'A', 'P', 'K', ' ', 'S', 'i', 'g', ' ',
                                   'B', 'l', 'o', 'c', 'k', ' ', '4', '2'};
    sign_buf b = {NULL, 0, 0, 0};
    unsigned char digest[32], *p;
    int ok;

    if (content_digest(out, f, entries, cd, cd_size, eocd, eocd_size, digest) != 0)
        return 2;
    buf_u64(&b, 0);
    ok = scheme_pair(&b, k, digest, 0) && scheme_pair(&b, k, digest, 1);
    padding_pair(&b);
    buf_u64(&b, b.n + 16);
    if ((p = buf_room(&b, 16)) != NULL)
        memcpy(p, magic, 16);
    if (!ok || b.failed) {
        if (b.failed)
            errno = ENOMEM;
        if (b.failed)
            cli_fail_errno(out, "sign it");
        else
            cli_error("%s: cannot sign it: %s", out, cli_os_sign_reason());
        free(b.p);
        return 2;
    }
    cli_wr64(b.p, b.n - 8);
    *block = b.p;
    *block_size = b.n;
    return 0;
}

