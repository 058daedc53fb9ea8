/* cli_sign.h - APK Signature Scheme v2 + v3 signing for repack (cli_sign.c), with the platform
   file's primitives (cli_os.h: SHA-256, RSA PKCS#1 v1.5 and ECDSA signatures, PEM and DER;
   OpenSSL's libcrypto, or Windows' CNG).
   The signing block goes between the last entry and the central directory, so no entry moves
   (the 16 KiB alignment of the stores stays). No v1 (JAR) signature: an app whose minSdk is below
   24 also needs one (apksigner sign --v1-signing-enabled true, which re-aligns .so entries). Built
   without them (no libcrypto off Windows), cli_sign_load refuses with what to install. */
#ifndef ASMSTORE_CLI_SIGN_H
#define ASMSTORE_CLI_SIGN_H
#include "cli.h"

#include <stdint.h>
#include <stdio.h>

/* >>the signer --------------------------------------------------------------------------------- */
/* A private key (RSA or EC) and its X.509 certificate. */
typedef struct cli_sign_key cli_sign_key;

/* Reads the PEM private key (PKCS#8 or traditional, not encrypted) at key_path and the PEM
   certificate at cert_path (regular files: a FIFO or directory is refused, never waited on) and
   checks the certificate is the key's and the key one Android's verifiers take (EC on P-256,
   P-384, P-521; RSA of 512-16384 bits, exponent below 2^33). 0 with *out set; 1 when a file holds
   no such key or certificate, they are not a pair, or the key is refused; 2 when one cannot be
   read, the platform cannot check the pair, or libcrypto is not built in (each after saying why
   and what to try). */
int cli_sign_load(const char *key_path, const char *cert_path, cli_sign_key **out);
void cli_sign_free(cli_sign_key *k);

/* >>the signing block -------------------------------------------------------------------------- */
/* The APK Signing Block (v2 + v3 signer, padded to a multiple of 4096 bytes as apksigner pads it)
   for an archive whose entries are the first `entries` bytes read from f, followed by the central
   directory cd[0..cd_size) and the end of central directory eocd[0..eocd_size) (with its comment;
   its CD offset must say `entries`, where the block will start). Reads f through a 1 MiB buffer.
   0 with a malloc'd *block; 2 after saying why, naming `out` (I/O, memory, the signature). */
int cli_sign_block(const cli_sign_key *k, const char *out, FILE *f, uint64_t entries,
                   const unsigned char *cd, size_t cd_size, const unsigned char *eocd,
                   size_t eocd_size, unsigned char **block, size_t *block_size);
#endif
