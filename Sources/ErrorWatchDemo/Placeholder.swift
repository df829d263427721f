// ErrorWatchDemo: see issue 5.
