// posix_spawn with a new session and a working folder: both are GNU extensions Swift's Glibc module does not show.
#define _GNU_SOURCE
#include "CProcessSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

int errorwatch_spawn(pid_t *pid, const char *file, char *const argv[], char *const envp[], const char *cwd,
                     int stdin_fd, int stdout_fd, int stderr_fd, int search_path) {
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_t actions;
    int result = posix_spawnattr_init(&attributes);
    if (result != 0) return result;
    result = posix_spawn_file_actions_init(&actions);
    if (result != 0) {
        posix_spawnattr_destroy(&attributes);
        return result;
    }
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    result = posix_spawnattr_setflags(&attributes,
                                      POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    if (result == 0) result = posix_spawnattr_setsigmask(&attributes, &none);
    if (result == 0) result = posix_spawnattr_setsigdefault(&attributes, &all);
    if (result == 0) result = posix_spawn_file_actions_adddup2(&actions, stdin_fd, 0);
    if (result == 0) result = posix_spawn_file_actions_adddup2(&actions, stdout_fd, 1);
    if (result == 0) result = posix_spawn_file_actions_adddup2(&actions, stderr_fd, 2);
    if (result == 0 && cwd != NULL) result = posix_spawn_file_actions_addchdir_np(&actions, cwd);
    if (result == 0) {
        result = search_path ? posix_spawnp(pid, file, &actions, &attributes, argv, envp)
                             : posix_spawn(pid, file, &actions, &attributes, argv, envp);
    }
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return result;
}

int errorwatch_openpty(int *primary, int *secondary, unsigned short columns, unsigned short rows) {
    int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0) return errno;
    if (grantpt(master) != 0 || unlockpt(master) != 0) {
        int saved = errno;
        close(master);
        return saved;
    }
    char name[128];
    if (ptsname_r(master, name, sizeof name) != 0) {
        int saved = errno;
        close(master);
        return saved;
    }
    int slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (slave < 0) {
        int saved = errno;
        close(master);
        return saved;
    }
    struct termios settings;
    if (tcgetattr(slave, &settings) == 0) {
        settings.c_oflag &= ~(tcflag_t)OPOST;
        settings.c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG);
        tcsetattr(slave, TCSANOW, &settings);
    }
    struct winsize size = {.ws_row = rows, .ws_col = columns};
    ioctl(slave, TIOCSWINSZ, &size);
    *primary = master;
    *secondary = slave;
    return 0;
}

int errorwatch_pipe(int fds[2]) {
    return pipe2(fds, O_CLOEXEC) == 0 ? 0 : errno;
}
