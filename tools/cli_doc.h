/* cli_doc.h - the man page and the bash completion script, written from the command table that
   help prints (asmstore.c): asmstore --man, asmstore --completion bash (what make install puts in
   share/man/man1/asmstore.1 and share/bash-completion/completions/asmstore). */
#ifndef ASMSTORE_CLI_DOC_H
#define ASMSTORE_CLI_DOC_H

/* >>generators --------------------------------------------------------------------------------- */
/* asmstore.1 in man(7) roff: every command's synopsis, text, options and example; the exit rule. */
void cli_doc_man(FILE *f, const cli_command *commands, size_t n);
/* A bash completion script defining _asmstore: commands, each command's options, an option's
   choices when its value is a '|' list, file names otherwise. */
void cli_doc_bash(FILE *f, const cli_command *commands, size_t n);
#endif
