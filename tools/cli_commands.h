/* cli_commands.h - the commands asmstore.c's table dispatches to. Each takes the arguments after
   its name and returns the exit status (cli_exit_rule: 0 ok, 1 invalid input, 2 usage or I/O). */
#ifndef ASMSTORE_CLI_COMMANDS_H
#define ASMSTORE_CLI_COMMANDS_H

/* >>read commands (cli_read.c) ----------------------------------------------------------------- */
int cli_cmd_list(int argc, char **argv);
int cli_cmd_info(int argc, char **argv);
int cli_cmd_verify(int argc, char **argv);
int cli_cmd_extract(int argc, char **argv);

/* >>write commands (cli_write.c) --------------------------------------------------------------- */
int cli_cmd_pack(int argc, char **argv);
int cli_cmd_wrap(int argc, char **argv);
int cli_cmd_elfcheck(int argc, char **argv);

/* >>repack (cli_repack.c) ---------------------------------------------------------------------- */
int cli_cmd_repack(int argc, char **argv);

/* >>cache commands (cli_cache.c) --------------------------------------------------------------- */
int cli_cmd_load(int argc, char **argv);
int cli_cmd_cache(int argc, char **argv);
#endif
