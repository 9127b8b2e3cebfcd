"""Input, output and exit statuses shared by every command.

Exit statuses (the same for all commands; also in the README):

- 0: done, every line or record was good;
- 1: some input lines or records were rejected (each one is reported);
- 2: usage error: bad options, an input that cannot be read, an output that
  cannot be opened or that is one of the inputs;
- 3: the output could not be written (disk full, I/O error) or an input
  failed mid-read; one line on stderr says which;
- 130: interrupted (Ctrl-C); what was written so far ends on a whole line;
- 141: the reader of the output went away (a broken pipe, as with ``| head``).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any, TypeVar

import click

EXIT_OK = 0
EXIT_REJECTED = 1
EXIT_USAGE = 2
EXIT_IO = 3
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141

EXIT_STATUS_HELP = (
    "Exit status: 0 all good; 1 some lines or records rejected; 2 usage error "
    "(options, unreadable input, output that cannot be opened or is an input); "
    "3 write or read failure (e.g. disk full); 130 interrupted; 141 broken pipe."
)

F = TypeVar("F", bound=Callable[..., Any])

_OUTPUTS_KEY = "cardtable.outputs"


class StreamError(Exception):
    """Writing an output (or reading an input) failed mid-run."""

    def __init__(self, what: str, error: OSError) -> None:
        super().__init__(f"{what}: {error.strerror or error}")
        self.error = error


class Output:
    """A binary output that knows whether its last write ended a line."""

    def __init__(self, stream: IO[bytes], name: str, close: bool) -> None:
        self.stream = stream
        self.name = name
        self._close = close
        self._partial = False

    def write(self, data: bytes) -> None:
        # A raw stream (stdout under python -u / PYTHONUNBUFFERED) may write
        # only part of the data, e.g. when a signal arrives: write the rest.
        view = memoryview(data)
        while view:
            # Unknown until the write returns: an interruption in between
            # ends the line with one more newline rather than leave it half.
            self._partial = True
            try:
                n = self.stream.write(view)
            except OSError as e:
                raise StreamError(f"cannot write {self.name}", e) from e
            n = len(view) if n is None else n  # None: only for non-blocking streams
            if n:
                self._partial = view[n - 1] != ord("\n")
            view = view[n:]

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as e:
            raise StreamError(f"cannot write {self.name}", e) from e

    def descriptor(self) -> int | None:
        """The open file descriptor beneath, flushed so that it can be
        written directly; None for a stream without one (a test's buffer)."""
        try:
            fd = self.stream.fileno()
        except (OSError, ValueError, AttributeError):
            return None
        self.flush()
        return fd

    def close(self) -> None:
        if self._close:
            self._close = False
            try:
                self.stream.close()
            except OSError as e:
                raise StreamError(f"cannot write {self.name}", e) from e

    def end_line(self) -> None:
        """After an interruption: finish a half-written line, keep what was written."""
        try:
            if self._partial:
                self.stream.write(b"\n")
                self._partial = False
            self.stream.flush()
        except (OSError, ValueError):
            pass


def _register(out: Output) -> Output:
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.meta.setdefault(_OUTPUTS_KEY, []).append(out)
    return out


def _stat_of(name: str) -> os.stat_result | None:
    try:
        if name == "-":
            return os.fstat(sys.stdin.fileno())
        return os.stat(name)
    except (OSError, ValueError, AttributeError):
        return None  # no such file, or a stand-in stdin without a descriptor


def is_same_file(a: str, b: str) -> bool:
    """True when two names (``-`` is standard input) are one file: the same
    device and inode, so hard links and symlinks count too."""
    sa, sb = _stat_of(a), _stat_of(b)
    return sa is not None and sb is not None and os.path.samestat(sa, sb)


def regular_size(name: str) -> int | None:
    """The size of a regular file (``-``: standard input); None for a pipe."""
    st = _stat_of(name)
    return st.st_size if st is not None and stat.S_ISREG(st.st_mode) else None


def open_output(path: str | None, inputs: Sequence[str] = (), option: str = "--output") -> Output:
    """The output of a command: standard output for None or ``-``, else the
    file, refused (usage error) when it is one of ``inputs`` or cannot be opened."""
    if path is None or path == "-":
        return _register(Output(sys.stdout.buffer, "standard output", close=False))
    for name in inputs:
        if is_same_file(path, name):
            shown = "standard input" if name == "-" else repr(name)
            raise click.BadParameter(
                f"{path!r} is the input {shown}: writing it would destroy the input",
                param_hint=f"'{option}'",
            )
    try:
        stream = open(path, "wb")  # noqa: SIM115 - closed by the caller
    except OSError as e:
        raise click.BadParameter(
            f"cannot open {path!r} for writing: {e.strerror or e}", param_hint=f"'{option}'"
        ) from e
    return _register(Output(stream, repr(path), close=True))


class Input:
    """An input file (or standard input for ``-``), read in blocks."""

    def __init__(self, name: str) -> None:
        self.name = name
        if name == "-":
            self.stream: IO[bytes] = sys.stdin.buffer
            self._close = False
        else:
            try:
                self.stream = open(name, "rb")  # noqa: SIM115 - closed by close()
            except OSError as e:
                raise click.UsageError(f"cannot read {name!r}: {e.strerror or e}") from e
            self._close = True
        try:
            st: os.stat_result | None = os.fstat(self.stream.fileno())
        except (OSError, ValueError, AttributeError):
            st = None  # a stand-in stream (tests): treat it as a pipe
        self.regular = st is not None and stat.S_ISREG(st.st_mode)
        self.size = st.st_size if st is not None and self.regular else None

    def descriptor(self) -> int | None:
        """The file descriptor of a regular file, to be read directly instead
        of through :meth:`blocks` (never both); None for a pipe, which is read
        in blocks as they come so that a filter answers each one at once."""
        if not self.regular:
            return None
        try:
            return self.stream.fileno()
        except (OSError, ValueError, AttributeError):
            return None

    def blocks(self, size: int) -> Iterator[bytes]:
        """Blocks of a regular file are full ``size`` chunks; a pipe or
        terminal gives whatever is available now (at most ``size``), so a
        filter in a pipeline answers each block as it comes."""
        read1 = getattr(self.stream, "read1", None)
        read = self.stream.read if self.regular or read1 is None else read1
        while True:
            try:
                block: bytes = read(size)
            except OSError as e:
                raise StreamError(f"cannot read {self.name!r}", e) from e
            if not block:
                return
            yield block

    def head(self, size: int = 4096) -> bytes:
        """Up to ``size`` of the bytes to be read next, left unread: a file's
        are read at the current offset (its descriptor does not move, for a
        reader that reads it directly), a pipe's are what it holds now."""
        try:
            if self.regular:
                return os.pread(self.stream.fileno(), size, self.stream.tell())
            peek = getattr(self.stream, "peek", None)
            if peek is not None:
                return bytes(peek(size)[:size])
            if self.stream.seekable():  # a stand-in stream (tests)
                at = self.stream.tell()
                data = self.stream.read(size)
                self.stream.seek(at)
                return data
        except (OSError, ValueError, AttributeError):
            pass
        return b""

    def wrong_encoding(self) -> str | None:
        """Why this input cannot be read as UTF-8 text, judged from its first
        bytes (a UTF-16 or UTF-32 file, or binary data); None when it may be
        UTF-8 text."""
        head = self.head()
        shown = "standard input" if self.name == "-" else repr(self.name)
        encoding = utf16_or_32(head)
        if encoding is not None:
            return (
                f"{shown} is {encoding}; cardtable reads UTF-8 (convert it first, e.g. with iconv)"
            )
        binary = binary_data(head)
        if binary is not None:
            return f"{shown} is binary data, not text ({binary}); cardtable reads UTF-8 text"
        return None

    def close(self) -> None:
        if self._close:
            self.stream.close()


# Byte-order marks of the encodings that UTF-8 readers meet (UTF-32 first:
# its little-endian mark starts with UTF-16's).
_BYTE_ORDER_MARKS = (
    (b"\xff\xfe\x00\x00", "UTF-32 (little-endian)"),
    (b"\x00\x00\xfe\xff", "UTF-32 (big-endian)"),
    (b"\xff\xfe", "UTF-16 (little-endian)"),
    (b"\xfe\xff", "UTF-16 (big-endian)"),
)


#: Bytes of text that are neither UTF-8 nor layout: C0 controls but tab,
#: line feed, vertical tab, form feed and carriage return, and DEL.
_CONTROL = bytes([*range(0x09), *range(0x0E, 0x20), 0x7F])


def binary_data(head: bytes) -> str | None:
    """Why text that starts with ``head`` is binary data, or None: it holds a
    NUL (text in UTF-8 never does; UTF-16 is told apart first), or at least
    a third of its bytes are control characters or not UTF-8. A text file
    with a few bytes of another encoding is text: its lines are read, and
    each bad one gets its own error."""
    if not head:
        return None
    if 0 in head:
        return f"a NUL byte at byte {head.index(0) + 1}"
    controls = len(head) - len(head.translate(None, _CONTROL))
    # Each bad sequence is one replacement (one cut at the end too).
    not_utf8 = head.decode("utf-8", errors="replace").count("\ufffd")
    if 3 * (controls + not_utf8) >= len(head):
        return f"{controls + not_utf8} of its first {len(head)} bytes are not text"
    return None


def utf16_or_32(head: bytes) -> str | None:
    """The encoding of text that starts with ``head``, when it is UTF-16 or
    UTF-32: by its byte-order mark, or by the NULs of UTF-16 text of mostly
    ASCII (one byte of each pair NUL, the other never; UTF-8 text has no
    NULs, and a file of NULs alone is neither). None otherwise."""
    for mark, name in _BYTE_ORDER_MARKS:
        if head.startswith(mark):
            return name
    pairs = len(head) // 2
    if pairs < 2:
        return None
    low, high = head[0 : 2 * pairs : 2], head[1 : 2 * pairs : 2]
    for nuls, others, name in ((high, low, "little"), (low, high, "big")):
        if others.count(0) == 0 and 2 * nuls.count(0) >= pairs:
            return f"UTF-16 ({name}-endian)"
    return None


def _quiet_stdout() -> None:
    """Points standard output at /dev/null so that the interpreter's final
    flush cannot fail again (and print a traceback) after we reported."""
    try:
        fd = sys.stdout.fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def _end_outputs() -> None:
    ctx = click.get_current_context(silent=True)
    for out in ctx.meta.get(_OUTPUTS_KEY, []) if ctx is not None else []:
        out.end_line()
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()


def _fail(command: str, message: str, status: int) -> None:
    _quiet_stdout()
    if message:
        with contextlib.suppress(OSError):
            click.echo(f"cardtable {command}: {message}", err=True)
    sys.exit(status)


def guarded(command: str) -> Callable[[F], F]:
    """Gives a command the shared exit statuses for Ctrl-C (130), a broken
    pipe (141) and a failed write (3), without a traceback."""

    def wrap(f: F) -> F:
        @functools.wraps(f)
        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                result = f(*args, **kwargs)
                sys.stdout.flush()  # a late write error is still ours to report
                return result
            except KeyboardInterrupt:
                _end_outputs()
                _fail(command, "", EXIT_INTERRUPTED)
            except StreamError as e:
                if e.error.errno == errno.EPIPE:
                    _fail(command, "", EXIT_BROKEN_PIPE)
                _fail(command, str(e), EXIT_IO)
            except BrokenPipeError:
                _fail(command, "", EXIT_BROKEN_PIPE)
            except OSError as e:
                # Text written with click.echo: standard output failed.
                _fail(command, f"cannot write standard output: {e.strerror or e}", EXIT_IO)
            return None

        return run  # type: ignore[return-value]

    return wrap
