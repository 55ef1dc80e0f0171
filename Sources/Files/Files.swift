// Files: whole files written safely, and text files read and written a line at a time.
//
// Start with `AtomicFile`: bytes go to a temporary file in the destination's folder, are synced
// and renamed into place, so a failure never leaves a partial file or damages an existing one.
// `LineReader` streams a file's lines in bounded memory (replays, journals); `LineWriter`
// appends lines through a buffer (recordings, journals). `FileError` says which file and what
// went wrong, in one line. `FileCalls` holds the raw POSIX calls.
