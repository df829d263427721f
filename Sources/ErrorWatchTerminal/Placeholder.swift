// ErrorWatchTerminal: see issue 5.
