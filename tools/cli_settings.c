/* cli_settings.c - the settings file of unpack and repack --from (cli_settings.h): a JSON reader
   bounded in everything (the text's size, nesting, one node array sized from the text), then the
   schema's stores and entries checked member by member. Every refusal names the byte it is at. */
#include "cli_settings.h"
#include "cli_fs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* >>json --------------------------------------------------------------------------------------- */
typedef struct json_parser {
    cli_json *j;
    size_t pos, cap;
} json_parser;

static int json_fail(json_parser *p, const char *what) {
    snprintf(p->j->error, sizeof p->j->error, "%s", what);
    p->j->error_offset = p->pos;
    return -1;
}

static void skip_space(json_parser *p) {
    const char *t = p->j->text;

    while (p->pos < p->j->size &&
           (t[p->pos] == ' ' || t[p->pos] == '\t' || t[p->pos] == '\n' || t[p->pos] == '\r'))
        p->pos++;
}

static int hex_digit(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* A string's body after its opening quote, up to and past the closing one. */
static int scan_string(json_parser *p) {
    const char *t = p->j->text;
    int k;

    while (p->pos < p->j->size) {
        unsigned char c = (unsigned char)t[p->pos];

        if (c == '"') {
            p->pos++;
            return 0;
        }
        if (c < 0x20)
            return json_fail(p, "a control character inside a string (write it as \\uXXXX)");
        if (c == '\\') {
            if (++p->pos >= p->j->size || !strchr("\"\\/bfnrtu", t[p->pos]))
                return json_fail(p, "an unknown escape in a string");
            if (t[p->pos] == 'u')
                for (k = 0; k < 4; k++)
                    if (++p->pos >= p->j->size || hex_digit(t[p->pos]) < 0)
                        return json_fail(p, "\\u with fewer than 4 hex digits");
        }
        p->pos++;
    }
    return json_fail(p, "a string that does not end");
}

static int scan_number(json_parser *p) {
    const char *t = p->j->text;
    size_t n = p->j->size, digits;

    if (p->pos < n && t[p->pos] == '-')
        p->pos++;
    for (digits = 0; p->pos < n && t[p->pos] >= '0' && t[p->pos] <= '9'; digits++)
        p->pos++;
    if (digits == 0 || (digits > 1 && t[p->pos - digits] == '0'))
        return json_fail(p, "a number (digits, no leading zero)");
    if (p->pos < n && t[p->pos] == '.') {
        for (p->pos++, digits = 0; p->pos < n && t[p->pos] >= '0' && t[p->pos] <= '9'; digits++)
            p->pos++;
        if (!digits)
            return json_fail(p, "digits after the decimal point");
    }
    if (p->pos < n && (t[p->pos] == 'e' || t[p->pos] == 'E')) {
        p->pos++;
        if (p->pos < n && (t[p->pos] == '+' || t[p->pos] == '-'))
            p->pos++;
        for (digits = 0; p->pos < n && t[p->pos] >= '0' && t[p->pos] <= '9'; digits++)
            p->pos++;
        if (!digits)
            return json_fail(p, "digits in the exponent");
    }
    return 0;
}

static int scan_value(json_parser *p, int depth);

/* The members or elements of the object or array node k, after its opening bracket. */
static int scan_members(json_parser *p, size_t k, int object, int depth) {
    const char *t = p->j->text;
    char close = object ? '}' : ']';

    skip_space(p);
    if (p->pos < p->j->size && t[p->pos] == close) {
        p->pos++;
        return 0;
    }
    for (;;) {
        skip_space(p);
        if (object && (p->pos >= p->j->size || t[p->pos] != '"'))
            return json_fail(p, "a member name (a string)");
        if (object && scan_value(p, depth + 1) != 0)
            return -1;
        skip_space(p);
        if (object && (p->pos >= p->j->size || t[p->pos++] != ':'))
            return json_fail(p, "':' after a member name");
        if (scan_value(p, depth + 1) != 0)
            return -1;
        p->j->nodes[k].count++;
        skip_space(p);
        if (p->pos < p->j->size && t[p->pos] == ',') {
            p->pos++;
            continue;
        }
        if (p->pos < p->j->size && t[p->pos] == close) {
            p->pos++;
            return 0;
        }
        return json_fail(p, object ? "',' or '}'" : "',' or ']'");
    }
}

/* One value into the next node (its members after it). */
static int scan_value(json_parser *p, int depth) {
    static const struct {
        const char *word;
        cli_json_type type;
    } words[] = {{"null", CLI_JSON_NULL}, {"false", CLI_JSON_FALSE}, {"true", CLI_JSON_TRUE}};
    cli_json *j = p->j;
    size_t k = j->n, w;
    int rc = 0;
    char c;

    skip_space(p);
    if (depth > CLI_SETTINGS_MAX_DEPTH)
        return json_fail(p, "no deeper nesting (the settings file has 5 levels)");
    if (p->pos >= j->size)
        return json_fail(p, "a value");
    if (j->n >= p->cap)
        return json_fail(p, "fewer values (a settings file of 100,000 entries has about 3 million)");
    memset(&j->nodes[k], 0, sizeof j->nodes[k]);
    j->n++;
    j->nodes[k].start = (uint32_t)p->pos;
    c = j->text[p->pos];
    if (c == '"') {
        j->nodes[k].type = CLI_JSON_STRING;
        j->nodes[k].start = (uint32_t)++p->pos;
        rc = scan_string(p);
        j->nodes[k].len = (uint32_t)(p->pos - j->nodes[k].start - 1);
        j->nodes[k].next = (uint32_t)j->n;
        return rc;
    }
    if (c == '{' || c == '[') {
        j->nodes[k].type = c == '{' ? CLI_JSON_OBJECT : CLI_JSON_ARRAY;
        p->pos++;
        rc = scan_members(p, k, c == '{', depth);
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        j->nodes[k].type = CLI_JSON_NUMBER;
        rc = scan_number(p);
    } else {
        for (w = 0; w < 3; w++)
            if (j->size - p->pos >= strlen(words[w].word) &&
                !memcmp(j->text + p->pos, words[w].word, strlen(words[w].word)))
                break;
        if (w == 3)
            return json_fail(p, "a value (string, number, object, array, true, false, null)");
        j->nodes[k].type = words[w].type;
        p->pos += strlen(words[w].word);
    }
    j->nodes[k].len = (uint32_t)(p->pos - j->nodes[k].start);
    j->nodes[k].next = (uint32_t)j->n;
    return rc;
}

int cli_json_parse(cli_json *j, const char *text, size_t size) {
    json_parser p;

    memset(j, 0, sizeof *j);
    j->text = text;
    j->size = size;
    p.j = j;
    p.pos = 0;
    if (size > CLI_SETTINGS_MAX_SIZE)
        return json_fail(&p, "a file of at most 64 MiB");
    /* every value but the first follows a '[', '{', ',' or ':' (counted in strings too: an upper
       bound), so the node array is a few times the text, not 20 */
    for (p.cap = 1; p.pos < size; p.pos++)
        p.cap += strchr("[{,:", text[p.pos]) && text[p.pos] ? 1u : 0u;
    if (p.cap > CLI_SETTINGS_MAX_VALUES)
        p.cap = CLI_SETTINGS_MAX_VALUES; /* more is refused where it starts */
    p.pos = 0;
    if (!(j->nodes = (cli_json_node *)malloc(p.cap * sizeof *j->nodes)))
        return json_fail(&p, "memory for the file's values (out of memory)");
    if (scan_value(&p, 0) == 0) {
        skip_space(&p);
        if (p.pos == size)
            return 0;
        json_fail(&p, "the end of the file after the one top-level value");
    }
    free(j->nodes);
    j->nodes = NULL;
    return -1;
}

void cli_json_free(cli_json *j) {
    free(j->nodes);
    j->nodes = NULL;
}

size_t cli_json_get(const cli_json *j, size_t obj, const char *key) {
    size_t i, k = obj + 1, n = strlen(key);

    if (j->nodes[obj].type != CLI_JSON_OBJECT)
        return 0;
    for (i = 0; i < j->nodes[obj].count; i++) {
        const cli_json_node *name = &j->nodes[k];

        if (name->len == n && !memcmp(j->text + name->start, key, n)) /* keys are plain ASCII */
            return name->next;
        k = j->nodes[name->next].next;
    }
    return 0;
}

/* >>strings ------------------------------------------------------------------------------------ */
static size_t put_utf8(char *d, unsigned long c) {
    if (c < 0x80) {
        d[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        d[0] = (char)(0xC0 | (c >> 6));
        d[1] = (char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        d[0] = (char)(0xE0 | (c >> 12));
        d[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        d[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    d[0] = (char)(0xF0 | (c >> 18));
    d[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    d[2] = (char)(0x80 | ((c >> 6) & 0x3F));
    d[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

static unsigned long hex4(const char *s) {
    return (unsigned long)(hex_digit(s[0]) << 12 | hex_digit(s[1]) << 8 | hex_digit(s[2]) << 4 |
                           hex_digit(s[3]));
}

/* String node k decoded into *d (scan_string checked its escapes; the result is never longer than
   its text). A lone surrogate or an escaped NUL is refused: names and paths have neither. */
static const char *decode_string(const cli_json *j, size_t k, char **d) {
    const char *s = j->text + j->nodes[k].start, *end = s + j->nodes[k].len, *out = *d;
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";

    for (; s < end; s++) {
        unsigned long c;

        if (*s != '\\') {
            *(*d)++ = *s;
            continue;
        }
        if (*++s != 'u') {
            *(*d)++ = to[strchr(from, *s) - from];
            continue;
        }
        c = hex4(s + 1);
        s += 4;
        if (c >= 0xD800 && c < 0xDC00 && end - s >= 7 && s[1] == '\\' && s[2] == 'u' &&
            hex4(s + 3) >= 0xDC00 && hex4(s + 3) < 0xE000) {
            c = 0x10000 + ((c - 0xD800) << 10) + (hex4(s + 3) - 0xDC00);
            s += 6;
        } else if (c == 0 || (c >= 0xD800 && c < 0xE000))
            return NULL;
        *d += put_utf8(*d, c);
    }
    *(*d)++ = 0;
    return out;
}

/* >>settings ----------------------------------------------------------------------------------- */
typedef struct settings_reader {
    cli_settings *s;
    cli_json j;
    char *arena_at;
} settings_reader;

static int settings_fail(settings_reader *r, size_t node, const char *what, const char *key) {
    snprintf(r->s->error, sizeof r->s->error, "%s%s%s", key ? key : "", key ? ": " : "", what);
    r->s->error_offset = r->j.nodes[node].start;
    return -1;
}

/* Member key of obj as a string: 0 with *v (NULL for null or absent when optional), or -1. */
static int get_string(settings_reader *r, size_t obj, const char *key, int optional,
                      const char **v) {
    size_t k = cli_json_get(&r->j, obj, key);

    *v = NULL;
    if (!k || r->j.nodes[k].type == CLI_JSON_NULL)
        return optional ? 0 : settings_fail(r, k ? k : obj, "missing (a string)", key);
    if (r->j.nodes[k].type != CLI_JSON_STRING)
        return settings_fail(r, k, "not a string", key);
    if (!(*v = decode_string(&r->j, k, &r->arena_at)))
        return settings_fail(r, k, "holds a NUL or a lone UTF-16 surrogate", key);
    return 0;
}

/* Member key of obj as a whole number in [0, max]: 0 with *v and *present, or -1. */
static int get_uint(settings_reader *r, size_t obj, const char *key, uint64_t max,
                    uint64_t *v, int *present) {
    size_t k = cli_json_get(&r->j, obj, key), i;
    const cli_json_node *n = &r->j.nodes[k];

    *v = 0;
    *present = k && n->type != CLI_JSON_NULL;
    if (!*present)
        return 0;
    if (n->type != CLI_JSON_NUMBER)
        return settings_fail(r, k, "not a number", key);
    for (i = 0; i < n->len; i++) {
        unsigned d = (unsigned)(r->j.text[n->start + i] - '0');

        if (d > 9 || d > max || *v > (max - d) / 10)
            return settings_fail(r, k, "not a whole number in range", key);
        *v = *v * 10 + d;
    }
    return 0;
}

static int need_uint(settings_reader *r, size_t obj, const char *key, uint64_t max,
                     uint64_t *v) {
    int present;

    if (get_uint(r, obj, key, max, v, &present) != 0)
        return -1;
    return present ? 0 : settings_fail(r, obj, "missing (a number)", key);
}

static int get_bool(settings_reader *r, size_t obj, const char *key, int *v) {
    size_t k = cli_json_get(&r->j, obj, key);

    if (!k)
        return settings_fail(r, obj, "missing (true or false)", key);
    if (r->j.nodes[k].type != CLI_JSON_TRUE && r->j.nodes[k].type != CLI_JSON_FALSE)
        return settings_fail(r, k, "not true or false", key);
    *v = r->j.nodes[k].type == CLI_JSON_TRUE;
    return 0;
}

/* A file member: NULL, or a relative name that stays under its directory. */
static int get_path(settings_reader *r, size_t obj, const char *key, int optional,
                    const char **v) {
    const char *why;
    char what[150];

    if (get_string(r, obj, key, optional, v) != 0)
        return -1;
    if (*v && (why = cli_unsafe_name(*v, strlen(*v))) != NULL) {
        snprintf(what, sizeof what, "not a relative name under the folder: %s", why);
        return settings_fail(r, cli_json_get(&r->j, obj, key), what, key);
    }
    return 0;
}

static int is_sha256(const char *h) {
    size_t i;

    for (i = 0; h && i < 64; i++)
        if (hex_digit(h[i]) < 0 || (h[i] >= 'A' && h[i] <= 'F'))
            return 0;
    return h && h[64] == 0;
}

static int read_entry_names(settings_reader *r, size_t k, cli_settings_entry *e) {
    if (get_string(r, k, "name", 0, &e->name) != 0 || get_path(r, k, "file", 1, &e->file) != 0 ||
        get_string(r, k, "compression", 0, &e->compression) != 0 ||
        get_string(r, k, "sha256", 1, &e->sha256) != 0 ||
        get_path(r, k, "pdb", 1, &e->pdb) != 0 ||
        get_string(r, k, "pdb_sha256", 1, &e->pdb_sha256) != 0 ||
        get_path(r, k, "config", 1, &e->config) != 0 ||
        get_string(r, k, "config_sha256", 1, &e->config_sha256) != 0)
        return -1;
    if (strcmp(e->compression, "none") && strcmp(e->compression, "lz4") &&
        strcmp(e->compression, "zstd"))
        return settings_fail(r, cli_json_get(&r->j, k, "compression"),
                             "not \"none\", \"lz4\" or \"zstd\"", "compression");
    if ((e->sha256 && !is_sha256(e->sha256)) || (e->pdb_sha256 && !is_sha256(e->pdb_sha256)) ||
        (e->config_sha256 && !is_sha256(e->config_sha256)))
        return settings_fail(r, k, "a sha256 that is not 64 lowercase hex digits", NULL);
    if (!!e->file != !!e->sha256 || !!e->pdb != !!e->pdb_sha256 ||
        !!e->config != !!e->config_sha256)
        return settings_fail(r, k, "a file without its sha256, or a sha256 without its file",
                             NULL);
    return 0;
}

static int read_entry(settings_reader *r, size_t k, cli_settings_entry *e) {
    uint64_t v;

    if (r->j.nodes[k].type != CLI_JSON_OBJECT)
        return settings_fail(r, k, "an entry that is not an object", NULL);
    if (need_uint(r, k, "index", UINT32_MAX, &v) != 0)
        return -1;
    e->index = (uint32_t)v;
    if (get_uint(r, k, "descriptor_index", UINT32_MAX, &v, &e->has_descriptor_index) != 0)
        return -1;
    e->descriptor_index = (uint32_t)v;
    if (get_uint(r, k, "mapping_index", UINT32_MAX, &v, &e->has_mapping_index) != 0)
        return -1;
    e->mapping_index = (uint32_t)v;
    if (need_uint(r, k, "level", 22, &v) != 0)
        return -1;
    e->level = (int)v;
    if (need_uint(r, k, "size", UINT64_MAX, &e->size) != 0 ||
        get_bool(r, k, "ignored", &e->ignored) != 0)
        return -1;
    return read_entry_names(r, k, e);
}

static int read_store_fields(settings_reader *r, size_t k, cli_settings_store *st) {
    uint64_t v;

    if (get_path(r, k, "dir", 0, &st->dir) != 0 || get_string(r, k, "source", 0, &st->source) ||
        get_string(r, k, "abi", 1, &st->abi) || get_string(r, k, "wrapper", 0, &st->wrapper) ||
        get_string(r, k, "hash", 1, &st->hash) || get_string(r, k, "release", 1, &st->release))
        return -1;
    if (strchr(st->dir, '/'))
        return settings_fail(r, cli_json_get(&r->j, k, "dir"), "more than one path component",
                             "dir");
    if (need_uint(r, k, "format", 4, &v) != 0)
        return -1;
    st->format = (uint32_t)v;
    if (need_uint(r, k, "version_word", UINT32_MAX, &v) != 0)
        return -1;
    st->version_word = (uint32_t)v;
    if (need_uint(r, k, "store_id", UINT32_MAX, &v) != 0)
        return -1;
    st->store_id = (uint32_t)v;
    if (need_uint(r, k, "header_size", UINT32_MAX, &st->header_size) != 0)
        return -1;
    return need_uint(r, k, "image_alignment", 1u << 16, &st->image_alignment);
}

/* Store k: its fields, then its entries into the next free slots of s->all. */
static int read_store(settings_reader *r, size_t k, cli_settings_store *st, size_t *used) {
    size_t arr, i, e;

    if (r->j.nodes[k].type != CLI_JSON_OBJECT)
        return settings_fail(r, k, "a store that is not an object", NULL);
    if (read_store_fields(r, k, st) != 0)
        return -1;
    arr = cli_json_get(&r->j, k, "entries");
    if (!arr || r->j.nodes[arr].type != CLI_JSON_ARRAY)
        return settings_fail(r, arr ? arr : k, "missing (an array)", "entries");
    st->entries = r->s->all + *used;
    st->nentries = r->j.nodes[arr].count;
    for (i = 0, e = arr + 1; i < st->nentries; i++, e = r->j.nodes[e].next)
        if (read_entry(r, e, &st->entries[i]) != 0)
            return -1;
    *used += st->nentries;
    return 0;
}

/* s->all for every entry of the stores (array node arr), at most CLI_SETTINGS_MAX_ENTRIES. */
static int alloc_entries(settings_reader *r, size_t arr) {
    size_t i, k, total = 0;

    for (i = 0, k = arr + 1; i < r->j.nodes[arr].count; i++, k = r->j.nodes[k].next) {
        size_t e = cli_json_get(&r->j, k, "entries");

        total += e && r->j.nodes[e].type == CLI_JSON_ARRAY ? r->j.nodes[e].count : 0;
    }
    if (total > CLI_SETTINGS_MAX_ENTRIES)
        return settings_fail(r, arr, "more than 100,000 entries in all, more than unpack writes",
                             "stores");
    if (!(r->s->all = (cli_settings_entry *)calloc(total ? total : 1, sizeof *r->s->all)))
        return settings_fail(r, arr, "out of memory", "stores");
    return 0;
}

static int read_document(settings_reader *r) {
    size_t arr, i, k, used = 0;
    uint64_t schema;

    if (r->j.nodes[0].type != CLI_JSON_OBJECT)
        return settings_fail(r, 0, "the file is not one JSON object", NULL);
    if (need_uint(r, 0, "schema", UINT32_MAX, &schema) != 0)
        return -1;
    if (schema != CLI_SETTINGS_SCHEMA)
        return settings_fail(r, cli_json_get(&r->j, 0, "schema"),
                             "not 1, the one this asmstore reads (unpack again with it)",
                             "schema");
    if (get_string(r, 0, "input", 1, &r->s->input) != 0 ||
        get_bool(r, 0, "archive", &r->s->archive) != 0)
        return -1;
    arr = cli_json_get(&r->j, 0, "stores");
    if (!arr || r->j.nodes[arr].type != CLI_JSON_ARRAY)
        return settings_fail(r, arr, "missing (an array)", "stores");
    if (r->j.nodes[arr].count > CLI_SETTINGS_MAX_STORES)
        return settings_fail(r, arr, "more stores than any input has (40)", "stores");
    if (alloc_entries(r, arr) != 0)
        return -1;
    r->s->nstores = r->j.nodes[arr].count;
    for (i = 0, k = arr + 1; i < r->s->nstores; i++, k = r->j.nodes[k].next)
        if (read_store(r, k, &r->s->stores[i], &used) != 0)
            return -1;
    return 0;
}

int cli_settings_parse(cli_settings *s, const char *text, size_t size) {
    settings_reader r;
    int rc;

    memset(s, 0, sizeof *s);
    memset(&r, 0, sizeof r);
    r.s = s;
    if (cli_json_parse(&r.j, text, size) != 0) {
        snprintf(s->error, sizeof s->error, "not JSON: expected %s", r.j.error);
        s->error_offset = r.j.error_offset;
        return -1;
    }
    /* every string fits in the text it came from */
    s->arena = (char *)malloc(size + 1);
    r.arena_at = s->arena;
    rc = s->arena ? read_document(&r) : settings_fail(&r, 0, "out of memory", NULL);
    cli_json_free(&r.j);
    if (rc != 0) {
        char error[sizeof s->error];
        size_t at = s->error_offset;

        memcpy(error, s->error, sizeof error);
        cli_settings_free(s);
        memcpy(s->error, error, sizeof error);
        s->error_offset = at;
    }
    return rc;
}

void cli_settings_free(cli_settings *s) {
    free(s->arena);
    free(s->all);
    memset(s, 0, sizeof *s);
}
