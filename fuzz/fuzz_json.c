/* fuzz_json.c - the CLI's --json writer (tools/cli_common.c's >>json part) driven by any bytes:
   the input split at NUL bytes into pieces, each piece's first byte choosing what to write (open
   an object or array, close, a string of the piece's other bytes, a number, a bool, null, an ABI,
   a 64-bit hex value, a failure noted) as the commands do, then cli_json_finish with any exit
   status. What lands on stdout must be one JSON document (tools/cli_settings.c's RFC 8259 reader
   takes all of it) with "schema" and "command" first and "error" last, whatever the strings hold
   and wherever the writing stopped. With the first byte's top bit set the pieces go into a file
   document instead (cli_json_file_begin, as unpack's settings), which must parse too. */
#include "../tools/cli_common.c"
#include "../tools/cli_fs.c"
#include "../tools/cli_os.c"
#include "../tools/cli_settings.c"

#include <stdlib.h>

#define FUZZ_MAX_PIECES 256
#define FUZZ_MAX_OPEN 12 /* below JSON_DEPTH: the commands open 4 at most */

/* A member's key inside an object (literal, as every command's are), NULL inside an array. */
static const char *fuzz_key(unsigned char c) {
    static const char *const keys[] = {"a", "store", "entries", "abi"};

    return doc->closer[doc->depth] == '}' ? keys[c % 4] : NULL;
}

/* One piece: its first byte says what to write, the rest is the string. */
static void fuzz_piece(const unsigned char *p, size_t n) {
    const char *s = n > 1 ? (const char *)p + 1 : "";
    unsigned char op = n ? p[0] : 0;
    const char *key = fuzz_key((unsigned char)(op >> 4));

    switch (op % 10) {
    case 0:
        if (doc->depth < FUZZ_MAX_OPEN)
            cli_json_open(key, op & 0x10 ? '[' : '{');
        break;
    case 1: cli_json_close(); break;
    case 2: cli_json_str(key, s); break;
    case 3: cli_json_num(key, (unsigned long long)n << (op & 0x3f)); break;
    case 4: cli_json_bool(key, op & 0x20); break;
    case 5: cli_json_null(key); break;
    case 6: cli_json_abi(key, (asmstore_abi)(op >> 4) % 6); break;
    case 7: cli_json_hex64(key, op & 0x20, (unsigned long long)n * 0x9E3779B97F4A7C15ull); break;
    case 8: cli_json_note_error(op & 0x20, (asmstore_result) - (int)(op >> 4), s); break;
    default: cli_json_str(key, NULL); break;
    }
}

/* The pieces of buf (size bytes, NUL-terminated) written, at most FUZZ_MAX_PIECES. */
static void fuzz_pieces(const unsigned char *buf, size_t size) {
    size_t i, start = 0, pieces = 0;

    for (i = 0; i <= size && pieces < FUZZ_MAX_PIECES; i++)
        if (buf[i] == 0) {
            fuzz_piece(buf + start, i - start);
            start = i + 1;
            pieces++;
        }
}

/* A file document of the pieces: one JSON object, and the report's writers are back on stdout. */
static void fuzz_file_document(const unsigned char *buf, size_t size) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cli_json parsed;

    if (!f)
        return;
    cli_json_file_begin(f);
    fuzz_pieces(buf, size);
    cli_json_file_end();
    fclose(f);
    if (cli_json_parse(&parsed, text, len) != 0 || parsed.nodes[0].type != CLI_JSON_OBJECT)
        abort();
    cli_json_free(&parsed);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    unsigned char *buf = (unsigned char *)malloc(size + 1); /* each piece NUL-terminated */
    char *text = NULL;
    size_t len = 0;
    FILE *saved = stdout;
    cli_json parsed;

    if (!buf || !(stdout = open_memstream(&text, &len))) {
        stdout = saved;
        free(buf);
        return 0;
    }
    memcpy(buf, data, size);
    buf[size] = 0;
    cli_json_begin("fuzz");
    if (size && data[0] & 0x80)
        fuzz_file_document(buf, size);
    else
        fuzz_pieces(buf, size);
    cli_json_finish(size ? data[0] % 3 : 0);
    fclose(stdout);
    stdout = saved;
    free(buf);
    if (cli_json_on() || cli_json_parse(&parsed, text, len) != 0)
        abort(); /* not one document, or the writer still thinks one is open */
    if (parsed.nodes[0].type != CLI_JSON_OBJECT || !cli_json_get(&parsed, 0, "schema") ||
        !cli_json_get(&parsed, 0, "command") || !cli_json_get(&parsed, 0, "error"))
        abort();
    cli_json_free(&parsed);
    free(text);
    return 0;
}
