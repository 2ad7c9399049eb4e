/*
 * message.h - messages of the `gts` tool (tools/message.c): every message
 * starts with "PROG COMMAND: " (doc/cli.md, "Messages"). The lowest file
 * of tools/: it includes nothing of the tool, and everything else may
 * include it.
 *
 * Exit statuses: 0 success, 1 a run-time failure (bad input line, library
 * error), 2 a usage error (unknown command or option, bad argument), 130
 * interrupted (SIGINT).
 */
#ifndef GTS_TOOLS_MESSAGE_H
#define GTS_TOOLS_MESSAGE_H

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2, CLI_INTERRUPTED = 130 };

/* Program name used in messages ("gts"). */
extern const char *cli_prog;
/* The command running ("search"), set by main() before it runs one; NULL
 * before. Every message starts with "PROG COMMAND: " (doc/cli.md,
 * "Messages"), or "PROG: " without a command. */
extern const char *cli_command;

/* Print "PROG COMMAND: out of memory" and exit with CLI_FAIL. */
void cli_oom(void) __attribute__((noreturn));
/* "PROG COMMAND: message" on stderr (the message names no command). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "PROG COMMAND: warning: message" on stderr. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "gts COMMAND: message" plus a hint to run --help; returns CLI_USAGE. */
int cli_usage_error(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* @p s for a message, in a new string (free it): bytes 0x21-0x7e as they
 * are, any other as \xHH. Never NULL (out of memory exits). */
char *cli_escaped(const char *s);

#endif
