/* cli_sign.c - APK Signature Scheme v2 + v3 signing block (cli_sign.h). The layout is the one
   source.android.com documents ("APK Signature Scheme v2", "v3") and apksig writes: the content
   digest is SHA-256 over 1 MiB chunks of the entries, the central directory and its end (whose
   CD offset names the block), one signer per scheme with the same digest, certificate and key;
   the v2 signed data carries the stripping-protection attribute that says a v3 signature is
   there too. Every primitive is libcrypto's; this file only lays the bytes out. */
#include "cli_sign.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#ifdef ASMSTORE_CLI_CRYPTO
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/core_names.h>
#include <openssl/bn.h>

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
    EVP_PKEY *pkey;
    unsigned char *cert, *spki; /* DER: the certificate, its SubjectPublicKeyInfo */
    int cert_size, spki_size;
    uint32_t algorithm; /* SIGN_RSA_SHA256 or SIGN_ECDSA_SHA256 */
};

/* >>the signer --------------------------------------------------------------------------------- */
/* libcrypto's reason for the last failure, and its queue emptied. */
static const char *crypto_reason(void) {
    unsigned long e = ERR_get_error();
    const char *s = e ? ERR_reason_error_string(e) : NULL;

    ERR_clear_error();
    return s ? s : "no reason given";
}

/* An encrypted key is refused, never prompted for (repack runs in scripts). */
static int no_password(char *buf, int size, int rwflag, void *user) {
    (void)buf;
    (void)size;
    (void)rwflag;
    (void)user;
    return 0;
}

/* The PEM private key (pkey) or certificate (cert, when pkey is NULL) in path, a regular file
   (cli_map_file: a FIFO never blocks, a directory is named as one). 0 read; 1 none there, after
   saying `what` was not found and what the option takes (`takes`); 2 unreadable. */
static int read_pem(const char *path, const char *what, const char *takes, EVP_PKEY **pkey,
                    X509 **cert) {
    const unsigned char *data;
    size_t size;
    BIO *b;
    int found;

    if (cli_map_file(path, &data, &size) != 0)
        return cli_fail_errno(path, pkey ? "read the signing key" : "read the signing certificate");
    b = size <= INT_MAX ? BIO_new_mem_buf(data ? (const void *)data : "", (int)size) : NULL;
    if (pkey)
        found = b && (*pkey = PEM_read_bio_PrivateKey(b, NULL, no_password, NULL)) != NULL;
    else
        found = b && (*cert = PEM_read_bio_X509(b, NULL, NULL, NULL)) != NULL;
    BIO_free(b);
    cli_unmap_file(data, size);
    if (!found)
        cli_error("%s: no %s found (%s). %s", path, what, crypto_reason(), takes);
    return found ? 0 : 1;
}

/* What Android's v2/v3 verifiers take, so a signed APK always installs: EC on P-256, P-384 or
   P-521 (apksigner's JCA refuses other curves, Android before 9 knows no more); RSA of 512 to 16384
   bits (the JCA's RSAKeyFactory limits) with an odd exponent of 2 to 33 bits (BoringSSL's
   rsa_check_public_key, which the device uses). 1 taken; 0 after saying why. */
static int android_takes(EVP_PKEY *pkey, const char *key_path) {
    static const char *const curves[] = {"prime256v1", "secp384r1", "secp521r1"};
    char group[80] = "";
    BIGNUM *e = NULL;
    int bits = EVP_PKEY_get_bits(pkey), ebits, odd, i;

    if (EVP_PKEY_get_base_id(pkey) == EVP_PKEY_EC) {
        if (!EVP_PKEY_get_group_name(pkey, group, sizeof group, NULL))
            snprintf(group, sizeof group, "explicit parameters");
        for (i = 0; i < 3; i++)
            if (strcmp(group, curves[i]) == 0)
                return 1;
        ERR_clear_error();
        cli_error("%s: an EC key on curve %s, which Android's APK signature verifiers refuse: "
                  "sign with a key on P-256, P-384 or P-521 ('openssl genpkey -algorithm EC "
                  "-pkeyopt ec_paramgen_curve:P-256 -out key.pem' makes one)",
                  key_path, group);
        return 0;
    }
    EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_RSA_E, &e);
    ebits = e ? BN_num_bits(e) : 0;
    odd = e && BN_is_odd(e);
    BN_free(e);
    ERR_clear_error();
    if (bits >= 512 && bits <= 16384 && ebits >= 2 && ebits <= 33 && odd)
        return 1;
    cli_error("%s: an RSA key of %d bits with a public exponent of %d bits, which Android's APK "
              "signature verifiers refuse (they take 512 to 16384 bits, an odd exponent below "
              "2^33): sign with a usual RSA key ('openssl genpkey -algorithm RSA -pkeyopt "
              "rsa_keygen_bits:3072 -out key.pem' makes one)",
              key_path, bits, ebits);
    return 0;
}

/* The pair's checks and DER forms into k. 0, or the exit code after saying why. */
static int describe(cli_sign_key *k, X509 *cert, const char *key_path, const char *cert_path) {
    int type = EVP_PKEY_get_base_id(k->pkey);

    if (X509_check_private_key(cert, k->pkey) != 1) {
        ERR_clear_error();
        cli_error("%s is not the certificate of the key in %s: give the certificate "
                  "made for that key ('openssl req -new -x509 -key %s -out cert.pem' makes one)",
                  cert_path, key_path, key_path);
        return 1;
    }
    if (type != EVP_PKEY_RSA && type != EVP_PKEY_EC) {
        cli_error("%s: the key is neither RSA nor EC: sign with an RSA or EC key", key_path);
        return 1;
    }
    if (!android_takes(k->pkey, key_path))
        return 1;
    k->algorithm = type == EVP_PKEY_RSA ? SIGN_RSA_SHA256 : SIGN_ECDSA_SHA256;
    k->cert_size = i2d_X509(cert, &k->cert);
    k->spki_size = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(cert), &k->spki);
    if (k->cert_size <= 0 || k->spki_size <= 0) {
        cli_error("%s: cannot encode the certificate: %s", cert_path, crypto_reason());
        return 2;
    }
    return 0;
}

int cli_sign_load(const char *key_path, const char *cert_path, cli_sign_key **out) {
    cli_sign_key *k = (cli_sign_key *)calloc(1, sizeof *k);
    X509 *cert = NULL;
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
                  &k->pkey, NULL);
    if (rc == 0)
        rc = read_pem(cert_path, "PEM X.509 certificate",
                      "--sign-cert takes the key's certificate in PEM ('openssl x509 -inform DER "
                      "-in CERT.der -out cert.pem' converts a DER one)",
                      NULL, &cert);
    if (rc == 0)
        rc = describe(k, cert, key_path, cert_path);
    X509_free(cert);
    if (rc == 0)
        *out = k;
    else
        cli_sign_free(k);
    return rc;
}

void cli_sign_free(cli_sign_key *k) {
    if (!k)
        return;
    EVP_PKEY_free(k->pkey);
    OPENSSL_free(k->cert);
    OPENSSL_free(k->spki);
    free(k);
}

/* >>the content digest ------------------------------------------------------------------------- */
static uint64_t chunks(uint64_t n) {
    return (n + SIGN_CHUNK - 1) / SIGN_CHUNK;
}

/* SHA-256 of 0xa5, the chunk's length (uint32 LE) and the chunk, into out[32]. 1 ok, 0 failed. */
static int chunk_digest(EVP_MD_CTX *c, const unsigned char *p, size_t n, unsigned char *out) {
    unsigned char head[5] = {0xa5};

    cli_wr32(head + 1, (uint32_t)n);
    return EVP_DigestInit_ex(c, EVP_sha256(), NULL) == 1 && EVP_DigestUpdate(c, head, 5) == 1 &&
           EVP_DigestUpdate(c, p, n) == 1 && EVP_DigestFinal_ex(c, out, NULL) == 1;
}

/* The chunk digests of p[0..n) appended at *at. 1 ok, 0 failed. */
static int section_digests(EVP_MD_CTX *c, const unsigned char *p, size_t n, unsigned char **at) {
    size_t i;

    for (i = 0; i < n; i += SIGN_CHUNK) {
        size_t len = n - i < SIGN_CHUNK ? n - i : SIGN_CHUNK;

        if (!chunk_digest(c, p + i, len, *at))
            return 0;
        *at += 32;
    }
    return 1;
}

/* The chunk digests of the first n bytes of f, read through buf (SIGN_CHUNK bytes). 1 ok, 0
   failed (errno set when reading did). */
static int file_digests(EVP_MD_CTX *c, FILE *f, uint64_t n, unsigned char *buf,
                        unsigned char **at) {
    if (fseeko(f, 0, SEEK_SET) != 0)
        return 0;
    while (n) {
        size_t len = n < SIGN_CHUNK ? (size_t)n : SIGN_CHUNK;

        if (fread(buf, 1, len, f) != len) {
            if (!ferror(f))
                errno = EIO;
            return 0;
        }
        if (!section_digests(c, buf, len, at))
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
    unsigned char *buf = (unsigned char *)malloc(SIGN_CHUNK), *at = all + 5;
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    int ok;

    errno = 0;
    ok = all && buf && c && file_digests(c, f, entries, buf, &at) &&
         section_digests(c, cd, cd_size, &at) && section_digests(c, eocd, eocd_size, &at);
    if (ok) {
        all[0] = 0x5a;
        cli_wr32(all + 1, (uint32_t)count);
        ok = EVP_Digest(all, (size_t)(at - all), digest, NULL, EVP_sha256(), NULL) == 1;
    }
    if (!ok && errno)
        cli_fail_errno(out, "read it back to sign it");
    else if (!ok)
        cli_error("%s: cannot digest it to sign it: %s", out, crypto_reason());
    EVP_MD_CTX_free(c);
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
    buf_lp(b, k->cert, (size_t)k->cert_size);
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

/* libcrypto's signature (SHA-256; PKCS#1 v1.5 for RSA, DER for ECDSA) of p[0..n) into b,
   length-prefixed. 1 ok, 0 failed. */
static int buf_signature(sign_buf *b, const cli_sign_key *k, const unsigned char *p, size_t n) {
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    unsigned char *sig = NULL;
    size_t len = 0;
    int ok = c && EVP_DigestSignInit(c, NULL, EVP_sha256(), NULL, k->pkey) == 1 &&
             EVP_DigestSign(c, NULL, &len, p, n) == 1 &&
             (sig = (unsigned char *)malloc(len)) != NULL &&
             EVP_DigestSign(c, sig, &len, p, n) == 1;

    if (ok)
        buf_lp(b, sig, len);
    free(sig);
    EVP_MD_CTX_free(c);
    return ok;
}

/* One id-value pair: the scheme's block with its one signer. 1 ok, 0 libcrypto failed. */
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
    buf_lp(b, k->spki, (size_t)k->spki_size);
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
            cli_error("%s: cannot sign it: %s", out, crypto_reason());
        free(b.p);
        return 2;
    }
    cli_wr64(b.p, b.n - 8);
    *block = b.p;
    *block_size = b.n;
    return 0;
}

#else /* built without libcrypto */
int cli_sign_load(const char *key_path, const char *cert_path, cli_sign_key **out) {
    (void)cert_path;
    *out = NULL;
    cli_error("%s: this asmstore was built without libcrypto, so it cannot sign: install "
              "libssl-dev and rebuild, or repack without --sign-key and sign with apksigner",
              key_path);
    return 2;
}

void cli_sign_free(cli_sign_key *k) {
    (void)k;
}

int cli_sign_block(const cli_sign_key *k, const char *out, FILE *f, uint64_t entries,
                   const unsigned char *cd, size_t cd_size, const unsigned char *eocd,
                   size_t eocd_size, unsigned char **block, size_t *block_size) {
    (void)k;
    (void)f;
    (void)entries;
    (void)cd;
    (void)cd_size;
    (void)eocd;
    (void)eocd_size;
    *block = NULL;
    *block_size = 0;
    errno = ENOSYS;
    return cli_fail_errno(out, "sign it");
}
#endif
