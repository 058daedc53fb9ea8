/* fuzz_options.c - the CLI's option parser (tools/cli_common.c: cli_parse_next) over any command
   line: the input split at NUL bytes into arguments, parsed against a table with short and long
   options, flags and options of one and two values. Each call moves on (to the next argument or
   the next letter of a cluster), so the loop ends within one call per byte and argument; an operand
   is an argument, an option's values are arguments or their tails, as many as its table says. */
#include "../tools/cli_common.c"
#include "../tools/cli_os.c" /* the platform file cli_common.c calls (--version's crypto library) */

#include <stdlib.h>

#define FUZZ_MAX_ARGS 64

static const cli_option fuzz_options[] = {{"output", 'o', 1, "OUT"}, {"directory", 'C', 1, "DIR"},
                                          {"json", 256, 0, NULL},     {"arch", 257, 2, "ABI FILE"},
                                          {"x", 'x', 0, NULL},        CLI_OPTIONS_END};
static const cli_command fuzz_command = {"fuzz", NULL, fuzz_options, "fuzz ARG...\n",
                                         "asmstore fuzz -o OUT"};

/* Does s start inside one of the arguments (their bytes or their end)? */
static int in_args(const char *s, int argc, char **argv) {
    int i;

    for (i = 0; s && i < argc; i++)
        if (s >= argv[i] && s <= argv[i] + strlen(argv[i]))
            return 1;
    return 0;
}

static const cli_option *fuzz_find(int key) {
    const cli_option *o;

    for (o = fuzz_options; o->name; o++)
        if (o->key == key)
            return o;
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *buf = (char *)malloc(size + 1), *argv[FUZZ_MAX_ARGS];
    int argc = 0, key;
    size_t i, start = 0, calls = 0;
    cli_parser p;

    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = 0;
    for (i = 0; i <= size && argc < FUZZ_MAX_ARGS; i++)
        if (i == size || buf[i] == 0) {
            argv[argc++] = buf + start;
            start = i + 1;
        }
    cli_begin(&fuzz_command);
    cli_parse_begin(&p, argc, argv, fuzz_options);
    while ((key = cli_parse_next(&p)) != CLI_DONE) {
        const cli_option *o = key > 0 ? fuzz_find(key) : NULL;

        if (++calls > size + (size_t)argc || p.k > argc)
            abort();
        if (key == CLI_OPERAND && !in_args(p.value, argc, argv))
            abort();
        if (key > 0 && key != 'h' && !o)
            abort(); /* a key no table entry has */
        if (o && o->nvalues >= 1 && !in_args(p.value, argc, argv))
            abort();
        if (o && (o->nvalues == 2) != (p.value2 != NULL))
            abort();
        if (o && o->nvalues == 2 && !in_args(p.value2, argc, argv))
            abort();
    }
    free(buf);
    return 0;
}
