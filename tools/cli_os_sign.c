/* cli_os_sign.c - the platform file's signing primitives (cli_os.h, "the signing primitives"):
   libcrypto on POSIX, the system's CNG (bcrypt, crypt32) on Windows. */
#include "cli.h"
#include "cli_os.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef _WIN32
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

/* >>libcrypto ---------------------------------------------------------------------------------- */
struct cli_os_key {
    EVP_PKEY *pkey;
};
struct cli_os_cert {
    X509 *x509;
    unsigned char *der, *spki;
    int der_size, spki_size;
};

const char *cli_os_sign_reason(void) {
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

/* text[0..n) as a memory BIO, or NULL. */
static BIO *text_bio(const unsigned char *text, size_t n) {
    return n <= INT_MAX ? BIO_new_mem_buf(n ? (const void *)text : "", (int)n) : NULL;
}

int cli_os_key_read(const unsigned char *text, size_t n, cli_os_key **out) {
    BIO *b = text_bio(text, n);
    EVP_PKEY *pkey = b ? PEM_read_bio_PrivateKey(b, NULL, no_password, NULL) : NULL;

    BIO_free(b);
    *out = pkey ? (cli_os_key *)calloc(1, sizeof **out) : NULL;
    if (!*out) {
        EVP_PKEY_free(pkey);
        return -1;
    }
    (*out)->pkey = pkey;
    return 0;
}

int cli_os_cert_read(const unsigned char *text, size_t n, cli_os_cert **out) {
    BIO *b = text_bio(text, n);
    X509 *x = b ? PEM_read_bio_X509(b, NULL, NULL, NULL) : NULL;
    cli_os_cert *c = x ? (cli_os_cert *)calloc(1, sizeof *c) : NULL;

    BIO_free(b);
    *out = NULL;
    if (!c) {
        X509_free(x);
        return -1;
    }
    c->x509 = x;
    c->der_size = i2d_X509(x, &c->der);
    c->spki_size = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(x), &c->spki);
    if (c->der_size <= 0 || c->spki_size <= 0) {
        cli_os_cert_free(c);
        return -1;
    }
    *out = c;
    return 0;
}

int cli_os_key_facts_of(const cli_os_key *k, cli_os_key_facts *facts) {
    int type = EVP_PKEY_get_base_id(k->pkey);
    BIGNUM *e = NULL;

    memset(facts, 0, sizeof *facts);
    facts->bits = EVP_PKEY_get_bits(k->pkey);
    if (type == EVP_PKEY_EC) {
        if (!EVP_PKEY_get_group_name(k->pkey, facts->curve, sizeof facts->curve, NULL))
            snprintf(facts->curve, sizeof facts->curve, "explicit parameters");
        ERR_clear_error();
        return 0;
    }
    if (type != EVP_PKEY_RSA)
        return -1;
    facts->rsa = 1;
    EVP_PKEY_get_bn_param(k->pkey, OSSL_PKEY_PARAM_RSA_E, &e);
    facts->exponent_bits = e ? BN_num_bits(e) : 0;
    facts->exponent_odd = e && BN_is_odd(e);
    BN_free(e);
    ERR_clear_error();
    return 0;
}


int cli_os_key_pairs(cli_os_key *k, const cli_os_cert *cert) {
    int ok = X509_check_private_key(cert->x509, k->pkey) == 1;

    ERR_clear_error();
    return ok;
}

void cli_os_cert_der(const cli_os_cert *cert, const unsigned char **der, size_t *size) {
    *der = cert->der;
    *size = (size_t)cert->der_size;
}
void cli_os_cert_spki(const cli_os_cert *cert, const unsigned char **der, size_t *size) {
    *der = cert->spki;
    *size = (size_t)cert->spki_size;
}

int cli_os_sign(const cli_os_key *k, const unsigned char *p, size_t n, unsigned char **sig,
                size_t *size) {
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    int ok = c && EVP_DigestSignInit(c, NULL, EVP_sha256(), NULL, k->pkey) == 1 &&
             EVP_DigestSign(c, NULL, size, p, n) == 1 &&
             (*sig = (unsigned char *)malloc(*size)) != NULL &&
             EVP_DigestSign(c, *sig, size, p, n) == 1;

    EVP_MD_CTX_free(c);
    if (!ok) {
        free(*sig);
        *sig = NULL;
    }
    return ok ? 0 : -1;
}

void cli_os_key_free(cli_os_key *k) {
    if (k)
        EVP_PKEY_free(k->pkey);
    free(k);
}
void cli_os_cert_free(cli_os_cert *cert) {
    if (!cert)
        return;
    X509_free(cert->x509);
    OPENSSL_free(cert->der);
    OPENSSL_free(cert->spki);
    free(cert);
}

#else
#include <windows.h>
#include <bcrypt.h>
#include <wincrypt.h>

/* >>windows: der ------------------------------------------------------------------------------- */
/* The keys' DER is read here, not by crypt32: Wine's CryptDecodeObjectEx has no PKCS#8 or EC
   private key decoder, nor does its CNG import a LEGACY_RSAPRIVATE_BLOB. Only what the key forms
   use: one-byte tags, definite lengths of at most 4 bytes. */
typedef struct der_span {
    const unsigned char *p;
    size_t n;
} der_span;

static const char *win_reason = "no reason given";
static char win_reason_text[96];

/* Says why (a CNG call and its NTSTATUS) for cli_os_sign_reason; -1. */
static int cng_failed(const char *call, NTSTATUS s) {
    snprintf(win_reason_text, sizeof win_reason_text, "CNG %s failed (NTSTATUS 0x%08lx)", call,
             (unsigned long)s);
    win_reason = win_reason_text;
    return -1;
}
static int refuse(const char *why) {
    win_reason = why;
    return -1;
}
const char *cli_os_sign_reason(void) {
    const char *s = win_reason;
    win_reason = "no reason given";
    return s;
}

/* The element at the front of *d when its tag is tag: its contents in *in, the whole element in
   *all (when not NULL), *d past it. 0, or -1 (another tag, or not DER). */
static int der_take(der_span *d, unsigned tag, der_span *in, der_span *all) {
    size_t head = 2, len, i;

    if (d->n < 2 || d->p[0] != tag)
        return -1;
    len = d->p[1];
    if (len & 0x80) {
        size_t bytes = len & 0x7f;
        if (bytes == 0 || bytes > 4 || d->n < 2 + bytes)
            return -1;
        for (len = 0, i = 0; i < bytes; i++)
            len = len << 8 | d->p[2 + i];
        head += bytes;
    }
    if (len > d->n - head)
        return -1;
    in->p = d->p + head;
    in->n = len;
    if (all) {
        all->p = d->p;
        all->n = head + len;
    }
    d->p += head + len;
    d->n -= head + len;
    return 0;
}
/* A non-negative INTEGER's magnitude (no leading zero bytes) in *v. 0 or -1. */
static int der_uint(der_span *d, der_span *v) {
    if (der_take(d, 0x02, v, NULL) != 0 || v->n == 0 || (v->p[0] & 0x80))
        return -1;
    while (v->n > 1 && v->p[0] == 0) {
        v->p++;
        v->n--;
    }
    return 0;
}
static int der_is(der_span v, const unsigned char *bytes, size_t n) {
    return v.n == n && memcmp(v.p, bytes, n) == 0;
}

/* >>windows: keys ------------------------------------------------------------------------------ */
static const unsigned char oid_rsa[] = {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01};
static const unsigned char oid_ec[] = {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01};
/* The curves Android's verifiers take, with libcrypto's names and CNG's algorithms and magics;
   then a few they refuse, by name only (others are named by their dotted OID). */
static const struct curve {
    unsigned char oid[9];
    size_t oid_size, field;
    const char *name;
    LPCWSTR alg;
    ULONG magic, public_magic;
} curves[] = {
    {{0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07}, 8, 32, "prime256v1",
     BCRYPT_ECDSA_P256_ALGORITHM, BCRYPT_ECDSA_PRIVATE_P256_MAGIC, BCRYPT_ECDSA_PUBLIC_P256_MAGIC},
    {{0x2b, 0x81, 0x04, 0x00, 0x22}, 5, 48, "secp384r1", BCRYPT_ECDSA_P384_ALGORITHM,
     BCRYPT_ECDSA_PRIVATE_P384_MAGIC, BCRYPT_ECDSA_PUBLIC_P384_MAGIC},
    {{0x2b, 0x81, 0x04, 0x00, 0x23}, 5, 66, "secp521r1", BCRYPT_ECDSA_P521_ALGORITHM,
     BCRYPT_ECDSA_PRIVATE_P521_MAGIC, BCRYPT_ECDSA_PUBLIC_P521_MAGIC},
    {{0x2b, 0x81, 0x04, 0x00, 0x21}, 5, 28, "secp224r1", NULL, 0, 0},
    {{0x2b, 0x81, 0x04, 0x00, 0x0a}, 5, 32, "secp256k1", NULL, 0, 0},
    {{0x2b, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x07}, 9, 32, "brainpoolP256r1", NULL, 0, 0},
};

struct cli_os_key {
    cli_os_key_facts facts;
    unsigned char *blob; /* RSA: a BCRYPT_RSAFULLPRIVATE_BLOB; EC: the private scalar */
    size_t blob_size;
    const struct curve *curve;       /* EC: one of curves, or NULL (refused by cli_sign.c) */
    unsigned char point[1 + 2 * 66]; /* EC: 04 X Y, when the key carries its public point */
    size_t point_size;
    BCRYPT_ALG_HANDLE alg;
    BCRYPT_KEY_HANDLE h; /* set by cli_os_key_pairs */
};

/* The dotted form of OID v into out (for a curve we do not know by name). */
static void oid_text(der_span v, char *out, size_t size) {
    size_t i, at = 0;
    unsigned long long arc = 0;

    for (i = 0; i < v.n && at + 24 < size; i++) {
        arc = arc << 7 | (v.p[i] & 0x7fu);
        if (v.p[i] & 0x80)
            continue;
        if (at == 0)
            at += (size_t)snprintf(out, size, "%u.%llu", arc < 80 ? (unsigned)(arc / 40) : 2u,
                                   arc < 80 ? arc % 40 : arc - 80);
        else
            at += (size_t)snprintf(out + at, size - at, ".%llu", arc);
        arc = 0;
    }
}

static int bits_of(der_span v) {
    int bits = (int)v.n * 8;
    unsigned char top = v.n ? v.p[0] : 0;

    while (bits > 0 && !(top & 0x80)) {
        top = (unsigned char)(top << 1);
        bits--;
    }
    return bits;
}

/* Appends v right-aligned in a field of width bytes at *at. 0, or -1 when it does not fit. */
static int put_be(unsigned char **at, der_span v, size_t width) {
    if (v.n > width)
        return -1;
    memset(*at, 0, width - v.n);
    memcpy(*at + width - v.n, v.p, v.n);
    *at += width;
    return 0;
}

/* PKCS#1 RSAPrivateKey: version, n, e, d, p, q, dp, dq, qinv, into a BCRYPT_RSAFULLPRIVATE_BLOB. */
static int rsa_key(der_span d, cli_os_key *k) {
    der_span seq, v[9];
    BCRYPT_RSAKEY_BLOB head;
    unsigned char *at;
    int i;

    if (der_take(&d, 0x30, &seq, NULL) != 0)
        return refuse("not an RSA private key");
    for (i = 0; i < 9; i++)
        if (der_uint(&seq, &v[i]) != 0)
            return refuse("not an RSA private key");
    if (v[0].n != 1 || v[0].p[0] != 0 || v[1].n > 2048 || v[2].n > 8)
        return refuse("an RSA key CNG cannot take (multi-prime, longer than 16384 bits, or an "
                      "exponent over 64 bits)");
    head.Magic = BCRYPT_RSAFULLPRIVATE_MAGIC;
    head.BitLength = (ULONG)bits_of(v[1]);
    head.cbPublicExp = (ULONG)v[2].n;
    head.cbModulus = (ULONG)v[1].n;
    head.cbPrime1 = (ULONG)v[4].n;
    head.cbPrime2 = (ULONG)v[5].n;
    k->blob_size = sizeof head + v[2].n + 2 * v[1].n + 3 * v[4].n + 2 * v[5].n;
    if (!(k->blob = (unsigned char *)malloc(k->blob_size)))
        return refuse("out of memory");
    memcpy(k->blob, &head, sizeof head);
    at = k->blob + sizeof head;
    if (put_be(&at, v[2], v[2].n) || put_be(&at, v[1], v[1].n) || put_be(&at, v[4], v[4].n) ||
        put_be(&at, v[5], v[5].n) || put_be(&at, v[6], v[4].n) || put_be(&at, v[7], v[5].n) ||
        put_be(&at, v[8], v[4].n) || put_be(&at, v[3], v[1].n))
        return refuse("not an RSA private key (a CRT part longer than its prime)");
    k->facts.rsa = 1;
    k->facts.bits = (int)head.BitLength;
    k->facts.exponent_bits = bits_of(v[2]);
    k->facts.exponent_odd = (v[2].p[v[2].n - 1] & 1) != 0;
    return 0;
}

/* The curve named by OID v into k's facts (and k->curve when it is one Android takes). */
static void ec_curve(der_span v, cli_os_key *k) {
    size_t i;

    for (i = 0; i < sizeof curves / sizeof curves[0]; i++)
        if (der_is(v, curves[i].oid, curves[i].oid_size)) {
            k->curve = curves[i].alg ? &curves[i] : NULL;
            snprintf(k->facts.curve, sizeof k->facts.curve, "%s", curves[i].name);
            return;
        }
    oid_text(v, k->facts.curve, sizeof k->facts.curve);
}

/* SEC1 ECPrivateKey: version 1, the scalar, [0] the curve (when not given by PKCS#8's
   parameters), [1] the public point. */
static int ec_key(der_span d, der_span curve_oid, cli_os_key *k) {
    der_span seq, v, scalar, tagged, point;

    if (der_take(&d, 0x30, &seq, NULL) != 0 || der_uint(&seq, &v) != 0 || v.n != 1 ||
        v.p[0] != 1 || der_take(&seq, 0x04, &scalar, NULL) != 0 || scalar.n == 0 || scalar.n > 66)
        return refuse("not an EC private key");
    if (der_take(&seq, 0xa0, &tagged, NULL) == 0 && der_take(&tagged, 0x06, &curve_oid, NULL) != 0)
        return refuse("not an EC private key (its curve)");
    if (!curve_oid.p)
        snprintf(k->facts.curve, sizeof k->facts.curve, "explicit parameters");
    else
        ec_curve(curve_oid, k);
    if (der_take(&seq, 0xa1, &tagged, NULL) == 0 && der_take(&tagged, 0x03, &point, NULL) == 0 &&
        point.n >= 2 && point.p[0] == 0 && point.n - 1 <= sizeof k->point) {
        memcpy(k->point, point.p + 1, point.n - 1);
        k->point_size = point.n - 1;
    }
    if (!(k->blob = (unsigned char *)malloc(scalar.n)))
        return refuse("out of memory");
    memcpy(k->blob, scalar.p, scalar.n);
    k->blob_size = scalar.n;
    return 0;
}

/* PKCS#8 PrivateKeyInfo: version, the algorithm (and the curve), the key's own DER. */
static int pkcs8_key(der_span d, cli_os_key *k) {
    der_span seq, v, alg, oid, params = {NULL, 0}, inner;

    if (der_take(&d, 0x30, &seq, NULL) != 0 || der_uint(&seq, &v) != 0 ||
        der_take(&seq, 0x30, &alg, NULL) != 0 || der_take(&alg, 0x06, &oid, NULL) != 0 ||
        der_take(&seq, 0x04, &inner, NULL) != 0)
        return refuse("not a PKCS#8 private key");
    if (der_is(oid, oid_rsa, sizeof oid_rsa))
        return rsa_key(inner, k);
    if (!der_is(oid, oid_ec, sizeof oid_ec))
        return refuse("the key is neither RSA nor EC");
    (void)der_take(&alg, 0x06, &params, NULL);
    return ec_key(inner, params, k);
}

/* Where s first is in text[0..n), or n. */
static size_t find(const unsigned char *text, size_t n, const char *s) {
    size_t len = strlen(s), i;

    for (i = 0; i + len <= n; i++)
        if (memcmp(text + i, s, len) == 0)
            return i;
    return n;
}

/* The DER of the PEM block labelled label in text[0..n) (malloc'd), or NULL. */
static unsigned char *pem_block(const unsigned char *text, size_t n, const char *label,
                                DWORD *size) {
    char begin[64];
    size_t i;
    unsigned char *out;

    snprintf(begin, sizeof begin, "-----BEGIN %s-----", label);
    i = find(text, n, begin);
    *size = 0;
    if (i == n || n - i > 0x7fffffffu ||
        !CryptStringToBinaryA((const char *)text + i, (DWORD)(n - i), CRYPT_STRING_BASE64HEADER,
                              NULL, size, NULL, NULL) ||
        !(out = (unsigned char *)malloc(*size ? *size : 1)))
        return NULL;
    if (CryptStringToBinaryA((const char *)text + i, (DWORD)(n - i), CRYPT_STRING_BASE64HEADER,
                             out, size, NULL, NULL))
        return out;
    free(out);
    return NULL;
}

int cli_os_key_read(const unsigned char *text, size_t n, cli_os_key **out) {
    static const char *const labels[] = {"PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY"};
    cli_os_key *k = (cli_os_key *)calloc(1, sizeof *k);
    unsigned char *bytes = NULL;
    DWORD size = 0;
    der_span d, none = {NULL, 0};
    int i, rc = -1;

    *out = NULL;
    for (i = 0; i < 3 && !bytes; i++) /* i ends one past the label found */
        bytes = pem_block(text, n, labels[i], &size);
    d.p = bytes;
    d.n = size;
    if (!k)
        refuse("out of memory");
    else if (find(text, n, "ENCRYPTED") < n) /* PKCS#8's label, or a traditional Proc-Type */
        refuse("an encrypted key");
    else if (!bytes)
        refuse("no PEM private key");
    else
        rc = i == 1 ? pkcs8_key(d, k) : i == 2 ? rsa_key(d, k) : ec_key(d, none, k);
    free(bytes);
    if (rc == 0)
        *out = k;
    else
        cli_os_key_free(k);
    return rc;
}

int cli_os_key_facts_of(const cli_os_key *k, cli_os_key_facts *facts) {
    *facts = k->facts;
    return 0;
}

/* >>windows: certificates, signatures ---------------------------------------------------------- */
struct cli_os_cert {
    PCCERT_CONTEXT ctx;
    der_span spki; /* within ctx's encoding */
};

int cli_os_cert_read(const unsigned char *text, size_t n, cli_os_cert **out) {
    DWORD size = 0;
    unsigned char *bytes = pem_block(text, n, "CERTIFICATE", &size);
    cli_os_cert *c = bytes ? (cli_os_cert *)calloc(1, sizeof *c) : NULL;
    der_span d, cert, tbs, skip;

    *out = NULL;
    if (!bytes)
        return refuse("no PEM certificate");
    if (c)
        c->ctx = CertCreateCertificateContext(X509_ASN_ENCODING, bytes, size);
    free(bytes);
    if (!c || !c->ctx) {
        cli_os_cert_free(c);
        return refuse("not an X.509 certificate");
    }
    /* Certificate { tbs { [0] version, serial, signature, issuer, validity, subject, spki } } */
    d.p = c->ctx->pbCertEncoded;
    d.n = c->ctx->cbCertEncoded;
    if (der_take(&d, 0x30, &cert, NULL) || der_take(&cert, 0x30, &tbs, NULL) ||
        (der_take(&tbs, 0xa0, &skip, NULL), der_take(&tbs, 0x02, &skip, NULL)) ||
        der_take(&tbs, 0x30, &skip, NULL) || der_take(&tbs, 0x30, &skip, NULL) ||
        der_take(&tbs, 0x30, &skip, NULL) || der_take(&tbs, 0x30, &skip, NULL) ||
        der_take(&tbs, 0x30, &skip, &c->spki)) {
        cli_os_cert_free(c);
        return refuse("not an X.509 certificate (its public key)");
    }
    *out = c;
    return 0;
}

void cli_os_cert_der(const cli_os_cert *cert, const unsigned char **der, size_t *size) {
    *der = cert->ctx->pbCertEncoded;
    *size = cert->ctx->cbCertEncoded;
}
void cli_os_cert_spki(const cli_os_cert *cert, const unsigned char **der, size_t *size) {
    *der = cert->spki.p;
    *size = cert->spki.n;
}

/* Key h's signature of the SHA-256 md (RSA: PKCS#1 v1.5; EC: r then s, 2 * field bytes) into sig
   (room for size), its length in *len. NTSTATUS. */
static NTSTATUS sign_hash(BCRYPT_KEY_HANDLE h, int rsa, unsigned char *md, unsigned char *sig,
                          ULONG size, ULONG *len) {
    BCRYPT_PKCS1_PADDING_INFO pad = {BCRYPT_SHA256_ALGORITHM};

    return BCryptSignHash(h, rsa ? &pad : NULL, md, 32, sig, size, len,
                          rsa ? BCRYPT_PAD_PKCS1 : 0);
}

/* The EC private blob: X and Y (the key's point, else the certificate's), then the scalar. */
static unsigned char *ec_blob(const cli_os_key *k, const cli_os_cert *cert, ULONG *size) {
    const CRYPT_BIT_BLOB *pub = &cert->ctx->pCertInfo->SubjectPublicKeyInfo.PublicKey;
    const unsigned char *point = k->point_size ? k->point : pub->pbData;
    size_t field = k->curve->field, point_size = k->point_size ? k->point_size : pub->cbData;
    BCRYPT_ECCKEY_BLOB head = {k->curve->magic, (ULONG)field};
    unsigned char *blob, *at;
    der_span x = {point + 1, field}, y = {point + 1 + field, field}, d = {k->blob, k->blob_size};

    if (point_size != 1 + 2 * field || point[0] != 4)
        return NULL;
    *size = (ULONG)(sizeof head + 3 * field);
    if (!(blob = (unsigned char *)malloc(*size)))
        return NULL;
    memcpy(blob, &head, sizeof head);
    at = blob + sizeof head;
    if (put_be(&at, x, field) || put_be(&at, y, field) || put_be(&at, d, field)) {
        free(blob);
        return NULL;
    }
    return blob;
}

/* k's CNG handle from its blob (EC: with the point cert gives when the key has none). 0 or -1. */
static int import_key(cli_os_key *k, const cli_os_cert *cert) {
    int rsa = k->facts.rsa;
    ULONG size = (ULONG)k->blob_size;
    unsigned char *blob;
    NTSTATUS s;

    if (!rsa && !k->curve)
        return refuse("a curve CNG does not have");
    if (!(blob = rsa ? k->blob : ec_blob(k, cert, &size)))
        return refuse("the key's public point is not one of its curve");
    s = BCryptOpenAlgorithmProvider(&k->alg, rsa ? BCRYPT_RSA_ALGORITHM : k->curve->alg, NULL, 0);
    if (s != 0) {
        k->alg = NULL;
        cng_failed("BCryptOpenAlgorithmProvider (the key's algorithm)", s);
    } else if ((s = BCryptImportKeyPair(k->alg, NULL,
                                        rsa ? BCRYPT_RSAFULLPRIVATE_BLOB : BCRYPT_ECCPRIVATE_BLOB,
                                        &k->h, blob, size, 0)) != 0) {
        k->h = NULL;
        cng_failed("BCryptImportKeyPair", s);
    }
    if (blob != k->blob)
        free(blob);
    return s == 0 ? 0 : -1;
}

/* The certificate's public key as a CNG key of k's kind (read here: crypt32's import carries an RSA
   exponent in 32 bits), into *pub. 0, or -1 (another kind of key: not k's certificate). */
static int cert_public_key(const cli_os_key *k, const cli_os_cert *cert, BCRYPT_KEY_HANDLE *pub) {
    der_span d = cert->spki, spki, alg, oid, bits, rsa, n, e;
    unsigned char blob[sizeof(BCRYPT_RSAKEY_BLOB) + 8 + 2048], *at = blob;
    ULONG size;

    if (der_take(&d, 0x30, &spki, NULL) || der_take(&spki, 0x30, &alg, NULL) ||
        der_take(&alg, 0x06, &oid, NULL) || der_take(&spki, 0x03, &bits, NULL) || bits.n < 2 ||
        bits.p[0] != 0)
        return -1;
    bits.p++;
    bits.n--;
    if (k->facts.rsa) {
        BCRYPT_RSAKEY_BLOB head = {BCRYPT_RSAPUBLIC_MAGIC, 0, 0, 0, 0, 0};
        if (!der_is(oid, oid_rsa, sizeof oid_rsa) || der_take(&bits, 0x30, &rsa, NULL) ||
            der_uint(&rsa, &n) || der_uint(&rsa, &e) || n.n > 2048 || e.n > 8)
            return -1;
        head.BitLength = (ULONG)bits_of(n);
        head.cbPublicExp = (ULONG)e.n;
        head.cbModulus = (ULONG)n.n;
        memcpy(at, &head, sizeof head);
        at += sizeof head;
        (void)put_be(&at, e, e.n);
        (void)put_be(&at, n, n.n);
    } else {
        size_t field = k->curve->field;
        BCRYPT_ECCKEY_BLOB head = {k->curve->public_magic, (ULONG)field};
        if (!der_is(oid, oid_ec, sizeof oid_ec) || bits.n != 1 + 2 * field || bits.p[0] != 4)
            return -1;
        memcpy(at, &head, sizeof head);
        memcpy(at + sizeof head, bits.p + 1, 2 * field);
        at += sizeof head + 2 * field;
    }
    size = (ULONG)(at - blob);
    return BCryptImportKeyPair(k->alg, NULL,
                               k->facts.rsa ? BCRYPT_RSAPUBLIC_BLOB : BCRYPT_ECCPUBLIC_BLOB, pub,
                               blob, size, 0) == 0
               ? 0
               : -1;
}

int cli_os_key_pairs(cli_os_key *k, const cli_os_cert *cert) {
    unsigned char md[32], sig[2048];
    ULONG len = 0;
    BCRYPT_KEY_HANDLE pub = NULL;
    BCRYPT_PKCS1_PADDING_INFO pad = {BCRYPT_SHA256_ALGORITHM};
    int paired;

    if (!k->h && import_key(k, cert) != 0)
        return -1;
    if (cert_public_key(k, cert, &pub) != 0)
        return 0;
    /* a signature by k that the certificate's key verifies */
    paired = cli_os_digest(CLI_OS_SHA256, "asmstore", 8, md) == 0 &&
             sign_hash(k->h, k->facts.rsa, md, sig, sizeof sig, &len) == 0 &&
             BCryptVerifySignature(pub, k->facts.rsa ? &pad : NULL, md, 32, sig, len,
                                   k->facts.rsa ? BCRYPT_PAD_PKCS1 : 0) == 0;
    BCryptDestroyKey(pub);
    return paired;
}

/* An unsigned integer's DER (a zero byte first when its top bit is set) at *at from v. */
static void put_der_uint(unsigned char **at, der_span v) {
    while (v.n > 1 && v.p[0] == 0) {
        v.p++;
        v.n--;
    }
    *(*at)++ = 0x02;
    *(*at)++ = (unsigned char)(v.n + (v.p[0] >> 7));
    if (v.p[0] & 0x80)
        *(*at)++ = 0;
    memcpy(*at, v.p, v.n);
    *at += v.n;
}

int cli_os_sign(const cli_os_key *k, const unsigned char *p, size_t n, unsigned char **sig,
                size_t *size) {
    unsigned char md[32], raw[2048], *at;
    ULONG len = 0;
    NTSTATUS s;
    size_t half, body;

    *sig = NULL;
    if (!k->h)
        return refuse("the key was not checked against its certificate");
    if (cli_os_digest(CLI_OS_SHA256, p, n, md) != 0)
        return refuse("CNG's SHA-256 failed");
    if ((s = sign_hash(k->h, k->facts.rsa, md, raw, sizeof raw, &len)) != 0)
        return cng_failed("BCryptSignHash", s);
    if (!(*sig = (unsigned char *)malloc(len + 16)))
        return refuse("out of memory");
    if (k->facts.rsa) {
        memcpy(*sig, raw, len);
        *size = len;
        return 0;
    }
    /* ECDSA: SEQUENCE { INTEGER r, INTEGER s }, as the APK scheme takes it */
    half = len / 2;
    at = *sig + 3;
    {
        der_span r = {raw, half}, t = {raw + half, half};
        put_der_uint(&at, r);
        put_der_uint(&at, t);
    }
    body = (size_t)(at - (*sig + 3));
    if (body < 0x80) {
        (*sig)[1] = 0x30;
        (*sig)[2] = (unsigned char)body;
        memmove(*sig, *sig + 1, body + 2);
        *size = body + 2;
    } else {
        (*sig)[0] = 0x30;
        (*sig)[1] = 0x81;
        (*sig)[2] = (unsigned char)body;
        *size = body + 3;
    }
    return 0;
}

void cli_os_key_free(cli_os_key *k) {
    if (!k)
        return;
    if (k->h)
        BCryptDestroyKey(k->h);
    if (k->alg)
        BCryptCloseAlgorithmProvider(k->alg, 0);
    if (k->blob)
        SecureZeroMemory(k->blob, k->blob_size);
    free(k->blob);
    free(k);
}
void cli_os_cert_free(cli_os_cert *cert) {
    if (!cert)
        return;
    if (cert->ctx)
        CertFreeCertificateContext(cert->ctx);
    free(cert);
}
#endif
