#!/usr/bin/env python3
"""Runs a command, waits until its standard error shows a line matching
PATTERN (a search under way), sends it SIGNAL, and waits for it to end.

usage: interrupt.py SIGNAL PATTERN STDOUT STDERR -- COMMAND...

Prints 'exit N' (N: the command's exit status) on standard output. Fails
when the pattern does not show within 120 s or the command ends before.
The shell's `cmd & kill` cannot be written in lit's internal shell.
"""

import re
import signal
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 7 or sys.argv[5] != "--":
        sys.exit(__doc__)
    signum = getattr(signal, sys.argv[1])
    pattern = re.compile(sys.argv[2])
    with open(sys.argv[3], "wb") as out, open(sys.argv[4], "wb") as err:
        process = subprocess.Popen(sys.argv[6:], stdout=out, stderr=err)
    deadline = time.monotonic() + 120
    while not any(pattern.search(line) for line in open(sys.argv[4])):
        if process.poll() is not None:
            sys.exit("interrupt.py: the command ended (exit %d) before '%s' "
                     "showed" % (process.returncode, sys.argv[2]))
        if time.monotonic() > deadline:
            process.kill()
            sys.exit("interrupt.py: '%s' did not show in 120 s" % sys.argv[2])
        time.sleep(0.05)
    process.send_signal(signum)
    print("exit %d" % process.wait())


if __name__ == "__main__":
    main()
