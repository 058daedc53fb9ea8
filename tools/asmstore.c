/* asmstore - command-line tool over asmstore.h and asmstore_cache.h: the command table and main.
   The commands live by concern: cli_read.c (list, info, verify, extract), cli_write.c (pack, wrap,
   elfcheck), cli_repack.c (repack), cli_diff.c (diff), cli_cache.c (load, cache); what they share
   is cli_common.c (cli.h) and cli_input.c (cli_input.h). Build: make (an object per file under
   build/cli, linked into build/asmstore). */
#include "cli.h"
#include "cli_commands.h"
#include "cli_doc.h"
#include "cli_os.h"

#include <stdlib.h>
#include <string.h>

/* >>commands: one table, each with its usage --------------------------------------------------- */
#define STORE_HELP                                                                               \
    "STORE is a store of any release (.NET 6-11): a raw store or .so wrapper; a .NET 6-8\n"      \
    "set given as one of its assemblies*.blob files or its directory (assemblies.manifest\n"     \
    "beside it names the entries); or an APK/AAB/split APK (every ABI, at every release's\n"     \
    "path, STORED or DEFLATEd).\n"

static const cli_command cli_commands[] = {
    {"pack", cli_cmd_pack, cli_pack_options,
     "pack -o OUT [--target net8|net9|net10|net11|net11-preview|net12] [--runtime coreclr|monovm]\n"
     "                [--abi arm64|arm|x86_64|x86[,...]] [--format 1|2|3|4] [--hash crc32|xxhash]\n"
     "                [--compression zstd|lz4|none | --no-compress] [--level N]\n"
     "                [--align-images N] [--jobs N] [--keep-uncompressed NAME]... [--pdb]\n"
     "                [--raw | --wrap dlopen|section | --template STUB.so]\n"
     "                [--symbol NAME] [--soname NAME] [--align N] [--arch ABI FILE|DIR]...\n"
     "                [--no-check] [--json] FILE|DIR...\n"
     "Writes what a release writes: by default --target net11 --runtime coreclr (format 3,\n"
     "CRC-32, zstd 22, dlopen-kind .so); --runtime defaults to monovm for net8..net10. Each\n"
     "other flag overrides its part. -o DIR/ writes DIR/<the release's file name>; --abi\n"
     "arm64,x86_64,... writes each ABI's store into DIR/<abi>/, compressing each image once\n"
     "(the bytes of packing one ABI at a time). --target\n"
     "net12 (dotnet/android main, not yet released) writes net11's CoreCLR store in the .so\n"
     "AssemblyStoreElfWriter lays out (payload at 16 KiB, 4 KiB on arm and x86). --target\n"
     "net8 writes the .NET 6-8 set into the directory OUT: assemblies.blob, one\n"
     "assemblies.<abi>.blob per --arch ABI, assemblies.manifest. Uncompressed images are\n"
     "16-byte aligned without --target, and at multiples of 4096 for CoreCLR (page-aligned: it\n"
     "maps them in place and crashes on an odd offset; every image of such a store is then).\n"
     "--align-images N overrides: 16 is enough, 16384 suits 16 KiB-page devices, 1 is a\n"
     "release's back-to-back layout (a warning for CoreCLR). --keep-uncompressed NAME (an\n"
     "entry name or a pattern such as '*.r2r.dll'; repeatable) stores those entries as they\n"
     "are in a compressed store. ReadyToRun component stubs are refused unless their\n"
     "composite image is an input. Before any work pack checks that OUT's directory takes\n"
     "files and that each input is a .NET assembly (its .pdb a PDB, its .config XML);\n"
     "--no-check packs the bytes as given (test stores, which verify then refuses).\n",
     "asmstore pack -o out/ --target net9 bin/Release/net9.0-android/android-arm64/"},
    {"wrap", cli_cmd_wrap, cli_wrap_options,
     "wrap -o OUT.so --abi A [--mode dlopen|section] [--template STUB.so] [--symbol NAME]\n"
     "                [--soname NAME] [--align N] PAYLOAD\n"
     "Wraps any file in a libassembly-store.so (no objcopy, llvm-mc or ld).\n",
     "asmstore wrap -o libassembly-store.so --abi arm64 assemblies.arm64_v8a.blob"},
    {"repack", cli_cmd_repack, cli_repack_options,
     "repack IN -o OUT [--replace [ABI/]NAME=FILE]... [--remove [ABI/]NAME]...\n"
     "                [--add FILE]... [--from DIR] [--jobs N]\n"
     "                [--sign-key KEY.pem --sign-cert CERT.pem]\n"
     "Rewrites an app's store (raw, .so, .NET 6-8 set, APK/AAB) with assemblies replaced,\n"
     "removed or (CoreCLR .NET 10+ APK/AAB) added, keeping everything else as the original had\n"
     "it; patches the app's libxamarin-app.so where an entry grew or was added, and refuses what\n"
     "the app's runtime would reject. An APK/AAB is written in one pass: entries copied raw and aligned, ZIP64\n"
     "where needed. --sign-key/--sign-cert sign an APK (v2 + v3, minSdk 24+) in that pass,\n"
     "moving no entry: a PEM RSA or EC key and its X.509 certificate. --from DIR takes the\n"
     "changes from the folder 'asmstore unpack IN -C DIR' wrote: a changed file is a\n"
     "--replace, a deleted one a --remove, a new one an --add; unchanged files are kept.\n",
     "asmstore repack app.apk -o patched.apk --replace MyApp.dll=bin/MyApp.dll"},
    {"unpack", cli_cmd_unpack, cli_unpack_options,
     "unpack STORE -C DIR [--force] [--json]\n"
     "Writes every store's uncompressed images (and .pdb/.config) under DIR/<abi>/ (any-abi/\n"
     "for a .NET 6-8 store 0), and DIR/asmstore-unpack.json: what 'repack STORE --from DIR'\n"
     "needs to rebuild exactly that store (layout, wrapper, order, indices, compression and\n"
     "level, each image's SHA-256). Edit, delete or add files there, then repack --from:\n"
     "unchanged files are kept byte for byte. DIR must be new or empty unless --force; no\n"
     "name leads outside it.\n" STORE_HELP,
     "asmstore unpack app.apk -C app-stores"},
    {"diff", cli_cmd_diff, cli_diff_options,
     "diff A B [--json] [--abi A]\n"
     "Compares two STOREs store by store (paired by ABI): store-level differences (format,\n"
     "header size, name hash, wrapper, image alignment, compression; archive path, alignment\n"
     "and method when both are in archives), then entries added, removed and changed (index,\n"
     "sizes, compression, ignored, .pdb, .config, content: the uncompressed image, whose\n"
     "SHA-256 it shows). Entries are matched by name (a .NET 6-8 store without its manifest:\n"
     "by name hash). Reads bytes only; nothing is loaded. --json: docs/json.md.\n"
     "Its exit status is not the rule below: 0 the same; 1 different; 2 usage or I/O error,\n"
     "or an input with no readable store.\n" STORE_HELP,
     "asmstore diff app.apk patched.apk --abi arm64"},
    {"elfcheck", cli_cmd_elfcheck, cli_elfcheck_options,
     "elfcheck FILE.so|APK [--json] [--abi A] [--symbol NAME]\n"
     "Checks bionic's loader rules (16 KiB pages, DT_HASH, ...) one by one.\n",
     "asmstore elfcheck app.apk --abi arm64"},
    {"list", cli_cmd_list, cli_list_options,
     "list STORE [--json] [--hash] [--abi A]\n"
     "Lists every entry of every store in STORE. --hash adds a column, and --json a field,\n"
     "with the SHA-256 of each uncompressed image (read from the bytes; nothing is loaded).\n"
     STORE_HELP,
     "asmstore list app.apk --abi arm64"},
    {"info", cli_cmd_info, cli_info_options,
     "info STORE [--json] [--abi A] [--app FILE]\n"
     "Names the layout (format, hash, wrapper: which .NET release writes it) and counts, and\n"
     "the app's libxamarin-app.so (lib/<abi>/ in an APK, beside the store, or --app FILE):\n"
     "its compressed-assembly table and whether every compressed entry fits it.\n"
     STORE_HELP,
     "asmstore info app.apk --json"},
    {"verify", cli_cmd_verify, cli_verify_options,
     "verify STORE [--json] [--abi A]\n"
     "Looks every entry of every ABI's store up by name, decompresses it and checks that it is\n"
     "what it claims (a PE assembly with a CLI header; a Portable or Windows PDB; a .config\n"
     "of XML text); names each failing entry and ABI.\n" STORE_HELP,
     "asmstore verify app.apk"},
    {"extract", cli_cmd_extract, cli_extract_options,
     "extract STORE -C DIR [--json] [--abi A] [NAME...]\n"
     "Writes images (and .pdb/.config) under DIR, DIR/<abi>/ when there are several ABIs;\n"
     "never outside DIR. An entry whose bytes are not what it claims (as verify checks) is\n"
     "named and not written; the others are, and extract exits 1.\n" STORE_HELP,
     "asmstore extract app.apk -C out --abi arm64 MyApp.dll"},
    {"scan", cli_cmd_scan, cli_scan_options,
     "scan [--jobs N] [--timeout S] [--max-memory MIB] [--summary]\n"
     "                [--yara RULES [--yara-members]] [--cache DIR] PATH...\n"
     "Scans many inputs for what a security review wants: one NDJSON line per input, in\n"
     "input order (docs/json.md 3.12): the file (size, SHA-256, kind), the app (.NET for\n"
     "Android or not, runtime, layout, ABIs), every store's entries with the SHA-256 and\n"
     "identity (name, version, MVID, public key token, debug id) of each decompressed image,\n"
     "and findings with stable codes (an image that is no assembly, a name the assembly does\n"
     "not have, entries the runtime never reaches, a table libxamarin-app.so disagrees with, a\n"
     "store DEFLATEd, misaligned or out of place, an assembly also stored as a plain file,\n"
     "damaged data). PATH is a file, a directory (walked; links not followed), @LIST or - (paths\n"
     "one a line). --jobs worker processes read the inputs, one at a time each; an input\n"
     "past --timeout (300 s) or --max-memory (4096 MiB) gets a line whose \"error\" says so\n"
     "(its worker is replaced).\n"
     "--yara RULES runs YARA rules (source or compiled) over every decompressed image, and\n"
     "--yara-members over the archive's other members too. --summary: counts on stderr.\n"
     "--cache DIR keeps each input's line and decompressed images under its SHA-256: a scan\n"
     "of the same bytes again (new rules over a corpus) decompresses and hashes nothing but\n"
     "the input, and runs only the rules. The cache is yours: what it holds goes into lines.\n"
     "Exit 0 when every input was read (findings are data), 1 when one was damaged or\n"
     "stopped, 2 for usage or an input that is not a readable file.\n",
     "asmstore scan --jobs 4 --yara rules.yar apks/ > scan.ndjson"},
    {"load", cli_cmd_load, cli_load_options,
     "load [--cache DIR] [--abi A] [--dlopen] [--json] STORE NAME...|--all\n"
     "Loads entries as a host would (through the cache in DIR when given): one ABI's stores\n"
     "(--abi, else this machine's when STORE has them, else the first), a file read through\n"
     "the file locator (mapped). A store that fails to open is named and skipped (exit 1).\n"
     "--dlopen runs your system's loader over the file: only for files you trust (a .so for\n"
     "this machine, and only when loading it runs nothing; any other is read from the file).\n"
     "Prints per entry: name, size, hit|miss|direct, the XXH3-64 of the bytes. DIR holds\n"
     "decompressed-assembly-cache-v1/; ASMSTORE_CACHE_DISABLE=1 turns the cache off.\n" STORE_HELP,
     "asmstore load --cache /tmp/asmcache app.apk --all"},
    {"cache", cli_cmd_cache, cli_cache_options,
     "cache prune DIR [--keep ID] [--max-bytes N] [--json]\n"
     "       asmstore cache stats DIR [--json]\n"
     "Removes old or excess cache files; shows what a cache directory holds.\n",
     "asmstore cache prune /tmp/asmcache --max-bytes 100000000"},
};

#define CLI_NCOMMANDS (sizeof cli_commands / sizeof cli_commands[0])

/* >>main --------------------------------------------------------------------------------------- */
static int help_all(void) {
    size_t i;

    printf("asmstore %d.%d.%d - the .NET for Android assembly store (XABA), every release\n",
           ASMSTORE_VERSION_MAJOR, ASMSTORE_VERSION_MINOR, ASMSTORE_VERSION_PATCH);
    for (i = 0; i < CLI_NCOMMANDS; i++) {
        const char *u = cli_commands[i].usage, *nl = strchr(u, '\n');

        printf("  asmstore %.*s\n", (int)(nl ? nl - u : (ptrdiff_t)strlen(u)), u);
    }
    printf("Run 'asmstore help COMMAND' (or 'asmstore COMMAND --help') for one command.\n%s",
           cli_exit_rule);
    return 0;
}

/* The command called name, or NULL. */
static const cli_command *find_command(const char *name) {
    size_t i;

    for (i = 0; i < CLI_NCOMMANDS; i++)
        if (!strcmp(name, cli_commands[i].name))
            return &cli_commands[i];
    return NULL;
}

static int unknown_command(const char *name) {
    size_t i;

    fprintf(stderr, "asmstore: unknown command '%s'. Commands:", cli_shown(name));
    for (i = 0; i < CLI_NCOMMANDS; i++)
        fprintf(stderr, " %s", cli_commands[i].name);
    fprintf(stderr, ". Try 'asmstore --help'.\n");
    return 2;
}

/* asmstore help [COMMAND]: the same as asmstore COMMAND --help. */
static int help_command(int argc, char **argv) {
    const cli_command *c;

    if (argc < 3)
        return help_all();
    if (!(c = find_command(argv[2])))
        return unknown_command(argv[2]);
    cli_print_help(stdout, c);
    return 0;
}

int main(int argc, char **argv) {
    const cli_command *c;
    const char *why;
    int rc;

    cli_os_init();
    if (argc < 2)
        return cli_usage();
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
        return help_all();
    if (!strcmp(argv[1], "help"))
        return help_command(argc, argv);
    if (!strcmp(argv[1], "--version")) {
        printf("asmstore %d.%d.%d\n", ASMSTORE_VERSION_MAJOR, ASMSTORE_VERSION_MINOR,
               ASMSTORE_VERSION_PATCH);
        cli_print_optional_parts(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--man")) { /* make install's asmstore.1 */
        cli_doc_man(stdout, cli_commands, CLI_NCOMMANDS);
        return 0;
    }
    if (!strcmp(argv[1], "--completion") && argc == 3 && !strcmp(argv[2], "bash")) {
        cli_doc_bash(stdout, cli_commands, CLI_NCOMMANDS);
        return 0;
    }
    if (!(c = find_command(argv[1])))
        return unknown_command(argv[1]);
    if ((why = cli_os_unavailable(c->name)) != NULL) {
        cli_error("%s: %s", c->name, why);
        return 2;
    }
    cli_begin(c);
    rc = cli_check_args(argc - 2, argv + 2); /* --help, and every option's spelling */
    if (rc == 0) /* --help */
        return 0;
    return cli_json_finish(rc > 0 ? rc : c->run(argc - 2, argv + 2));
}
