/*
 * message.c - the messages of the `gts` tool and of the tools built from
 * its sources (gts-mpi): "PROG COMMAND: ..." on stderr, usage errors with
 * their --help hint, out of memory, escaped user text (doc/cli.md,
 * "Messages"). It depends on nothing else of tools/, so every other file
 * there (cli.c, plugin.c, options.c, ...) can use it without a circle.
 */
#include "message.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cli_prog = "gts";
const char *cli_command = NULL;

/* "PROG COMMAND: " (doc/cli.md, "Messages"), or "PROG: " before a command. */
static void message_prefix(void)
{
    if (cli_command)
        fprintf(stderr, "%s %s: ", cli_prog, cli_command);
    else
        fprintf(stderr, "%s: ", cli_prog);
}

void cli_oom(void)
{
    message_prefix();
    fputs("out of memory\n", stderr);
    exit(CLI_FAIL);
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    message_prefix();
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    message_prefix();
    fputs("warning: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_usage_error(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (command)
        fprintf(stderr, "%s %s: ", cli_prog, command);
    else
        fprintf(stderr, "%s: ", cli_prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    if (command)
        fprintf(stderr, "Try '%s %s --help' for more information.\n", cli_prog, command);
    else
        fprintf(stderr, "Try '%s --help' for more information.\n", cli_prog);
    return CLI_USAGE;
}

char *cli_escaped(const char *s)
{
    size_t len = strlen(s);
    char *out = malloc(4 * len + 1);
    if (!out)
        cli_oom();
    size_t n = 0;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x21 && c < 0x7f)
            out[n++] = (char)c;
        else
            n += (size_t)sprintf(out + n, "\\x%02x", c);
    }
    out[n] = '\0';
    return out;
}
