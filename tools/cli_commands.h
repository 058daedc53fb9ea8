/* cli_commands.h - the commands asmstore.c's table dispatches to, and the options each takes (the
   table cli_parse_next reads, help, the man page and the completion list). Each takes the arguments
   after its name and returns the exit status (cli_exit_rule: 0 ok, 1 invalid input, 2 usage or
   I/O). */
#ifndef ASMSTORE_CLI_COMMANDS_H
#define ASMSTORE_CLI_COMMANDS_H

/* >>read commands (cli_read.c) ----------------------------------------------------------------- */
int cli_cmd_list(int argc, char **argv);
int cli_cmd_info(int argc, char **argv);
int cli_cmd_verify(int argc, char **argv);
int cli_cmd_extract(int argc, char **argv);
extern const cli_option cli_list_options[];
extern const cli_option cli_info_options[];
extern const cli_option cli_verify_options[];
extern const cli_option cli_extract_options[];

/* >>write commands (cli_write.c) --------------------------------------------------------------- */
int cli_cmd_pack(int argc, char **argv);
int cli_cmd_wrap(int argc, char **argv);
int cli_cmd_elfcheck(int argc, char **argv);
extern const cli_option cli_pack_options[];
extern const cli_option cli_wrap_options[];
extern const cli_option cli_elfcheck_options[];

/* >>repack (cli_repack.c) ---------------------------------------------------------------------- */
int cli_cmd_repack(int argc, char **argv);
extern const cli_option cli_repack_options[];

/* >>unpack (cli_unpack.c) ---------------------------------------------------------------------- */
int cli_cmd_unpack(int argc, char **argv);
extern const cli_option cli_unpack_options[];

/* >>diff (cli_diff.c) -------------------------------------------------------------------------- */
int cli_cmd_diff(int argc, char **argv);
extern const cli_option cli_diff_options[];

/* >>scan (cli_scan.c) -------------------------------------------------------------------------- */
int cli_cmd_scan(int argc, char **argv);
extern const cli_option cli_scan_options[];

/* >>cache commands (cli_cache.c) --------------------------------------------------------------- */
int cli_cmd_load(int argc, char **argv);
int cli_cmd_cache(int argc, char **argv);
extern const cli_option cli_load_options[];
extern const cli_option cli_cache_options[];
#endif
