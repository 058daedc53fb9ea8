"""`python -m asmstore ARGS` and the `asmstore` console script: the CLI itself (tools/*.c, compiled
into the extension with its main renamed), printing as it does and exiting with its status."""
import os
import signal
import sys
from typing import List, Optional

from . import _asmstore


def main(argv: Optional[List[str]] = None) -> int:
    """Runs `asmstore ARGV` (default sys.argv[1:]); returns its exit status."""
    args = sys.argv[1:] if argv is None else argv
    # as the CLI started from a shell: killed by Ctrl-C, and by a closed pipe (`... | head`)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.stdout.flush()
    sys.stderr.flush()
    return _asmstore.main([os.fsencode(a) for a in args])


if __name__ == "__main__":
    sys.exit(main())
