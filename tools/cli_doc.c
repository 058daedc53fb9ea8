/* cli_doc.c - the man page and the bash completion (cli_doc.h), both written from the command
   table help prints, so neither can drift from what the commands take. */
#include "cli.h"
#include "cli_doc.h"

#include <string.h>

/* >>usage texts -------------------------------------------------------------------------------- */
/* A usage text is synopsis lines (the first, then those that start with a space) and then what the
   command does: the length of the synopsis part. */
static size_t synopsis_len(const char *usage) {
    const char *p = strchr(usage, '\n');

    while (p && p[1] == ' ')
        p = strchr(p + 1, '\n');
    return p ? (size_t)(p - usage) + 1 : strlen(usage);
}

/* A '|' list of lower-case choices ("dlopen|section"), not a placeholder ("OUT", "FILE|DIR"). */
static int is_choice_list(const char *value) {
    for (; value && *value; value++)
        if (*value >= 'A' && *value <= 'Z')
            return 0;
    return 1;
}

/* >>man page ----------------------------------------------------------------------------------- */
/* s[0..n) as roff text: backslashes and dashes escaped, a line's leading '.' or '\'' made text. */
static void roff(FILE *f, const char *s, size_t n) {
    size_t i;
    int line_start = 1;

    for (i = 0; i < n; i++) {
        if (line_start && (s[i] == '.' || s[i] == '\''))
            fputs("\\&", f);
        if (s[i] == '\\')
            fputs("\\e", f);
        else if (s[i] == '-')
            fputs("\\-", f);
        else
            fputc(s[i], f);
        line_start = s[i] == '\n';
    }
}

static void roff_str(FILE *f, const char *s) {
    roff(f, s, strlen(s));
}

/* One command: its synopsis (no fill), what it does, its options, its example. */
static void man_command(FILE *f, const cli_command *c) {
    size_t syn = synopsis_len(c->usage);
    const cli_option *o;

    fprintf(f, ".SS %s\n.nf\nasmstore ", c->name);
    roff(f, c->usage, syn);
    fputs(".fi\n", f);
    roff_str(f, c->usage + syn);
    fputs(".PP\nOptions:\n.RS\n.nf\n", f);
    for (o = c->options; o && o->name; o++) {
        fputs(o->key < 256 ? "" : "    ", f);
        if (o->key < 256)
            fprintf(f, "\\-%c, ", o->key);
        fputs("\\fB\\-\\-", f);
        roff_str(f, o->name);
        fputs("\\fR", f);
        if (o->value) {
            fputs(" \\fI", f);
            roff_str(f, o->value);
            fputs("\\fR", f);
        }
        fputs("\n", f);
    }
    fputs("\\-h, \\fB\\-\\-help\\fR\n.fi\n.RE\n.PP\nExample:\n.RS\n.nf\n", f);
    roff_str(f, c->example);
    fputs("\n.fi\n.RE\n", f);
}

void cli_doc_man(FILE *f, const cli_command *commands, size_t n) {
    size_t i;

    fprintf(f, ".TH ASMSTORE 1 \"\" \"asmstore %d.%d.%d\" \"User Commands\"\n",
            ASMSTORE_VERSION_MAJOR, ASMSTORE_VERSION_MINOR, ASMSTORE_VERSION_PATCH);
    fputs(".SH NAME\nasmstore \\- read, write, repack and check .NET for Android assembly stores "
          "(XABA), every release\n.SH SYNOPSIS\n.nf\n",
          f);
    for (i = 0; i < n; i++) {
        fputs("asmstore ", f);
        roff(f, commands[i].usage, synopsis_len(commands[i].usage));
    }
    fputs("asmstore help COMMAND\n.fi\n.SH DESCRIPTION\nOptions follow getopt_long's rules: "
          "\\-\\-name VALUE or \\-\\-name=VALUE, \\-o VALUE or \\-oVALUE, operands between "
          "options, and \\-\\- ends the options. "
          "\\fBasmstore help\\fR COMMAND prints what \\fBasmstore\\fR COMMAND \\-\\-help prints.\n"
          ".SH COMMANDS\n",
          f);
    for (i = 0; i < n; i++)
        man_command(f, &commands[i]);
    fputs(".SH EXIT STATUS\n", f);
    roff_str(f, cli_exit_rule);
}

/* >>bash completion ---------------------------------------------------------------------------- */
/* The case arms of one command: an option's value (its choices, or file names), then its
   options. */
static void bash_command(FILE *f, const cli_command *c) {
    const cli_option *o;

    fprintf(f, "    %s)\n        case $prev in\n", c->name);
    for (o = c->options; o && o->name; o++) {
        const char *v;

        if (!o->nvalues)
            continue;
        fprintf(f, "        --%s", o->name);
        if (o->key < 256)
            fprintf(f, "|-%c", o->key);
        if (!is_choice_list(o->value)) {
            fputs(") COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", f);
            continue;
        }
        fputs(") COMPREPLY=($(compgen -W '", f);
        for (v = o->value; *v; v++)
            fputc(*v == '|' ? ' ' : *v, f);
        fputs("' -- \"$cur\")); return ;;\n", f);
    }
    fputs("        esac\n        opts='--help", f);
    for (o = c->options; o && o->name; o++)
        fprintf(f, " --%s", o->name);
    fputs("' ;;\n", f);
}

void cli_doc_bash(FILE *f, const cli_command *commands, size_t n) {
    size_t i;

    fputs("# bash completion for asmstore (written by asmstore --completion bash)\n"
          "_asmstore() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} opts\n"
          "    local commands='",
          f);
    for (i = 0; i < n; i++)
        fprintf(f, "%s ", commands[i].name);
    fputs("help'\n"
          "    COMPREPLY=()\n"
          "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
          "        COMPREPLY=($(compgen -W \"$commands --help --version\" -- \"$cur\"))\n"
          "        return\n"
          "    fi\n"
          "    case ${COMP_WORDS[1]} in\n"
          "    help) [ \"$COMP_CWORD\" -eq 2 ] && COMPREPLY=($(compgen -W \"$commands\" -- "
          "\"$cur\")); return ;;\n",
          f);
    for (i = 0; i < n; i++)
        bash_command(f, &commands[i]);
    fputs("    *) return ;;\n"
          "    esac\n"
          "    case $cur in\n"
          "    -*) COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\")) ;;\n"
          "    *) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"
          "    esac\n"
          "}\n"
          "complete -o filenames -F _asmstore asmstore\n",
          f);
}
