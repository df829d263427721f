// Wide-character ncurses for Swift. ncurses hides its wide API behind _XOPEN_SOURCE_EXTENDED and
// exposes several entry points only as macros, which Swift cannot import; the static inline
// functions below give them real names.
#ifndef ERRORWATCH_CNCURSES_SHIM_H
#define ERRORWATCH_CNCURSES_SHIM_H

#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <locale.h>
#include <wchar.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <ncursesw/curses.h>

static inline int ew_color_pair(int n) { return (int)COLOR_PAIR(n); }
static inline int ew_colors(void) { return COLORS; }
static inline int ew_color_pairs(void) { return COLOR_PAIRS; }
static inline int ew_lines(void) { return LINES; }
static inline int ew_cols(void) { return COLS; }
static inline WINDOW *ew_stdscr(void) { return stdscr; }
static inline WINDOW *ew_curscr(void) { return curscr; }
static inline int ew_getmaxy(WINDOW *w) { return getmaxy(w); }
static inline int ew_getmaxx(WINDOW *w) { return getmaxx(w); }
static inline int ew_key_resize(void) { return KEY_RESIZE; }
static inline int ew_key_code_yes(void) { return KEY_CODE_YES; }
static inline attr_t ew_a_bold(void) { return A_BOLD; }
static inline attr_t ew_a_dim(void) { return A_DIM; }
static inline attr_t ew_a_underline(void) { return A_UNDERLINE; }
static inline attr_t ew_a_reverse(void) { return A_REVERSE; }
static inline attr_t ew_a_normal(void) { return A_NORMAL; }

/// Builds a complex character from up to `len` wide characters (one grapheme) and writes it at (y, x).
/// `pair` is passed through setcchar's `opts` so pairs above 32767 (extended colours) work too.
static inline int ew_put_wide(WINDOW *w, int y, int x, const wchar_t *chars, attr_t attrs, int pair) {
    cchar_t cc;
    if (setcchar(&cc, chars, attrs, (short)(pair <= 32767 ? pair : 0), &pair) != OK) { return ERR; }
    return mvwadd_wch(w, y, x, &cc);
}

/// The size of the terminal on `fd` (TIOCGWINSZ); returns 0 on success. ioctl is variadic, which Swift cannot call.
static inline int ew_window_size(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0) { return -1; }
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 0;
}

/// Starts curses on the process's own stdout, reading keys from `input_fd` (stdin, or the controlling terminal
/// `/dev/tty` when stdin is a pipe, as `less` does); NULL (instead of exiting, as initscr does) on failure.
static inline SCREEN *ew_newterm(int input_fd) {
    if (input_fd == 0) { return newterm(NULL, stdout, stdin); }
    FILE *input = fdopen(input_fd, "r");
    if (input == NULL) { return NULL; }
    return newterm(NULL, stdout, input);
}

/// Whether the terminal ncurses just set up can move the cursor (has `cup`); `TERM=dumb` cannot, and a dashboard
/// drawn on it would be only its last line.
static inline int ew_can_address_cursor(void) {
    char *cup = tigetstr("cup");
    return cup != NULL && cup != (char *)-1;
}

/// fflush(stderr) without touching the `stderr` global from Swift (which strict concurrency rejects).
static inline void ew_flush_stderr(void) { fflush(stderr); }

/// The column width of a wide character in the current locale (glibc declares wcwidth only under _XOPEN_SOURCE).
extern int wcwidth(wchar_t c);
static inline int ew_wcwidth(wchar_t c) { return wcwidth(c); }

/// KEY_F(n), a function-like macro.
static inline int ew_key_f(int n) { return KEY_F(n); }

#endif
