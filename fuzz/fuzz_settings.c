/* fuzz_settings.c - the settings file repack --from reads (tools/cli_settings.c): the bounded JSON
   reader and the schema checks over any bytes. A parse either fails with an offset inside the text
   and nothing held, or gives stores whose directories and files are safe relative names (no "..",
   no leading '/'), strings NUL-terminated inside the arena, entries inside the entry array. Seeds:
   real unpack outputs (tests/lib/fuzz_corpus.sh). */
#include "../tools/cli_fs.c"
#include "../tools/cli_os.c"
#include "../tools/cli_settings.c"

#include <stdlib.h>

/* Is s a NUL-terminated string inside the arena? */
static int in_arena(const cli_settings *s, size_t size, const char *p) {
    return !p || (p >= s->arena && p + strlen(p) < s->arena + size + 1);
}

static void check_entry(const cli_settings *s, size_t size, const cli_settings_entry *e) {
    if (!in_arena(s, size, e->name) || !e->name || !in_arena(s, size, e->file) ||
        !in_arena(s, size, e->compression) || !in_arena(s, size, e->sha256) ||
        !in_arena(s, size, e->pdb) || !in_arena(s, size, e->config))
        abort();
    if (e->file && (cli_unsafe_name(e->file, strlen(e->file)) || !e->sha256))
        abort();
    if (e->level < 0 || e->level > 22)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    cli_settings s;
    size_t i, k, total = 0;

    if (cli_settings_parse(&s, (const char *)data, size) != 0) {
        if (s.error_offset > size || !s.error[0] || s.arena || s.all)
            abort();
        return 0;
    }
    if (s.nstores > CLI_SETTINGS_MAX_STORES)
        abort();
    for (i = 0; i < s.nstores; i++) {
        const cli_settings_store *st = &s.stores[i];

        if (!st->dir || cli_unsafe_name(st->dir, strlen(st->dir)) || strchr(st->dir, '/'))
            abort();
        if (st->format > 4) /* "format" in [0, 4]: get_uint's max below 9 */
            abort();
        if (st->nentries && st->entries != s.all + total) /* each store's after the last's */
            abort();
        for (k = 0; k < st->nentries; k++)
            check_entry(&s, size, &st->entries[k]);
        total += st->nentries;
    }
    if (total > size || total > CLI_SETTINGS_MAX_ENTRIES)
        abort();
    cli_settings_free(&s);
    return 0;
}
