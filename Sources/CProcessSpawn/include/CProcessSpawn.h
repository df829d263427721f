#ifndef CPROCESSSPAWN_H
#define CPROCESSSPAWN_H

#include <sys/types.h>

/// Starts `argv[0]` (looked up in PATH when `search_path` is non-zero) as the leader of a new session, so that it and
/// everything it starts form one process group that can be signalled at once, and so that it has no controlling
/// terminal of ours (the dashboard's keys never reach it). Its standard input, output and error are `stdin_fd`,
/// `stdout_fd` and `stderr_fd`; every signal's disposition is reset to the default and its signal mask is empty
/// (the dashboard ignores SIGPIPE and blocks others); it starts in `cwd` unless that is NULL.
/// Returns 0 and sets `*pid`, or an errno value (ENOENT: no such command).
int errorwatch_spawn(pid_t *pid, const char *file, char *const argv[], char *const envp[], const char *cwd,
                     int stdin_fd, int stdout_fd, int stderr_fd, int search_path);

/// Opens a pseudo-terminal pair whose output is passed through as written (no `\n` → `\r\n`) and which does not
/// echo, sized `columns` × `rows`. Both descriptors are close-on-exec. Returns 0, or an errno value.
int errorwatch_openpty(int *primary, int *secondary, unsigned short columns, unsigned short rows);

/// A pipe whose two descriptors are close-on-exec (`pipe2(fds, O_CLOEXEC)`). Returns 0, or an errno value.
int errorwatch_pipe(int fds[2]);

#endif
