// Files: whole files written safely, and text files read and written a line at a time.
//
// Start with `AtomicFile`: bytes go to a temporary file in the destination's folder, are synced
// and renamed into place, so a failure never leaves a partial file or damages an existing one.
// `FileBytes` reads a whole file into memory, up to a limit (pictures), and `FileReader` in two
// steps, its first bytes and then the rest up to what they allow; `LineReader` streams a
// file's lines in bounded memory (replays, journals); both read streams too (a FIFO, a pipe such
// as /dev/stdin) and never wait for a writer that does not exist. `LineWriter` appends lines
// through a buffer (recordings, journals). `FileError` says which file and what went wrong, in
// one line, and its kind. `FileCalls` holds the raw POSIX calls.
