"""Runs a command and writes its peak resident memory (KiB, ru_maxrss) to a file.

Usage: peak_rss.py OUT COMMAND [ARGS...]; exits with the command's status (128 + N for a signal).
A process made by vfork or posix_spawn carries its parent's high-water mark through exec (Linux
records the old memory's peak at exec), so a child of the test runner reports the runner's size;
a child of this small process reports at most this one's, and its own.
"""
import resource
import subprocess
import sys

result = subprocess.run(sys.argv[2:])
with open(sys.argv[1], "w") as out:
    out.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(result.returncode if result.returncode >= 0 else 128 - result.returncode)
