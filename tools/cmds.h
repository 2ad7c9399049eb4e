/*
 * cmds.h - the commands of the `gts` tool. Each takes its own argv (argv[0]
 * is the command name) and returns the exit status (see cli.h).
 */
#ifndef GTS_TOOLS_CMDS_H
#define GTS_TOOLS_CMDS_H

int cmd_solve(int argc, char **argv);      /* cmd_solve.c */
int cmd_search(int argc, char **argv);     /* cmd_search.c */
int cmd_perft(int argc, char **argv);      /* cmd_search.c */
int cmd_nodes(int argc, char **argv);      /* cmd_search.c */
int cmd_bench(int argc, char **argv);      /* cmd_bench.c */
int cmd_speedup(int argc, char **argv);    /* cmd_bench.c */
int cmd_algorithms(int argc, char **argv); /* gts.c */
int cmd_match(int argc, char **argv);      /* cmd_match.c */
int cmd_check(int argc, char **argv);      /* cmd_check.c */

#endif
