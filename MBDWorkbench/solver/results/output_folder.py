"""Output folders written as a whole (docs/results-format.md, "Writing results").

An :class:`OutputFolder` is opened before any work is done: it checks the target (not a file,
not below a file, its parent writable; a non-empty target only with ``overwrite``, and only if
it holds nothing but files this kind of output writes) and takes a lock, so that a second
writer into the same target is refused. The content goes into a hidden temporary folder
beside the target (``.NAME.partial-*``, on the same file system); :meth:`OutputFolder.commit`
renames it into place, exchanging it with the old folder in one step where the system can
(Linux ``renameat2(RENAME_EXCHANGE)``), so the target is always either the old folder or the
new one, never a mix. :meth:`OutputFolder.abort` removes the temporary folder and leaves the
old one untouched.

The lock is an ``flock`` on ``.NAME.lock`` beside the target: the system releases it when the
process ends, however it ends, so a killed run never leaves a stale lock.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import glob
import os
import shutil
import tempfile
from collections.abc import Collection

from ..errors import ModelError

try:  # POSIX
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None
    import msvcrt


class OutputTargetError(ModelError):
    """An output folder that cannot or may not be written (checked before any work); ``path`` names it."""


class OutputFolder:
    """A folder written as a whole: checked and locked on creation, filled in :attr:`temp`,
    renamed into place by :meth:`commit` or dropped by :meth:`abort` (both idempotent).

    ``replaceable``: the names an existing folder may hold to be replaced with ``overwrite``
    (anything else there is refused, so an ``--out .`` never deletes a user's files); ``what``
    names the content in messages ("results", "report")."""

    def __init__(
        self,
        target: str | os.PathLike,
        overwrite: bool = False,
        replaceable: Collection[str] = (),
        what: str = "output",
    ) -> None:
        self.target = os.path.realpath(os.fspath(target))
        self.overwrite, self.replaceable, self.what = overwrite, frozenset(replaceable), what
        self.parent, self.name = os.path.split(self.target)
        self.temp: str | None = None
        self._lock_fd: int | None = None
        self._open()

    # ------------------------------------------------------------------ opening
    def _open(self) -> None:
        if not self.name:
            raise OutputTargetError(self.target, f"is the root of the file system; choose a folder for the {self.what}")
        self._check_place()
        self._make_parent()
        self._lock()
        try:
            self._check_content()
            self._remove_stale()
            self.temp = tempfile.mkdtemp(prefix=f".{self.name}.partial-", dir=self.parent)
        except OSError as exc:
            self._unlock()
            raise self._cannot_write(exc) from None
        except BaseException:
            self._unlock()
            raise

    def _check_place(self) -> None:
        """Refuse a file, a path below a file, and the working folder (or one holding it)."""
        if os.path.lexists(self.target) and not os.path.isdir(self.target):
            raise OutputTargetError(self.target, f"is a file, not a folder; choose a folder for the {self.what}")
        ancestor = self.parent
        while ancestor and not os.path.lexists(ancestor):
            ancestor = os.path.dirname(ancestor) if os.path.dirname(ancestor) != ancestor else ""
        if ancestor and not os.path.isdir(ancestor):
            raise OutputTargetError(self.target, f"lies below the file {ancestor}; choose a folder for the {self.what}")
        cwd = os.path.realpath(os.getcwd())
        if cwd == self.target or cwd.startswith(self.target + os.sep):
            raise OutputTargetError(self.target, f"holds the working folder; choose another folder for the {self.what}")

    def _make_parent(self) -> None:
        try:
            os.makedirs(self.parent, exist_ok=True)
        except OSError as exc:
            raise self._cannot_write(exc) from None

    def _check_content(self) -> None:
        """A non-empty target only with ``overwrite``, and only if it holds nothing but replaceable entries."""
        if not os.path.isdir(self.target):
            return
        entries = sorted(os.listdir(self.target))
        if not entries:
            return
        if not self.overwrite:
            raise OutputTargetError(
                self.target,
                f"is not empty (it holds {_names(entries)}); pass --overwrite (overwrite=True) to replace it as "
                f"a whole, or choose another folder",
            )
        foreign = [e for e in entries if e not in self.replaceable]
        if foreign:
            raise OutputTargetError(
                self.target,
                f"holds {_names(foreign)}, which are not {self.what} files; not replaced (choose another folder)",
            )

    def _remove_stale(self) -> None:
        """Temporary folders of runs that were killed (SIGKILL, power loss): nobody writes them (we hold the lock)."""
        for stale in glob.glob(os.path.join(glob.escape(self.parent), f".{glob.escape(self.name)}.partial-*")):
            shutil.rmtree(stale, ignore_errors=True)

    def _cannot_write(self, exc: OSError) -> OutputTargetError:
        return OutputTargetError(self.target, f"the {self.what} cannot be written into {self.parent}: {exc.strerror}")

    # ------------------------------------------------------------------ lock
    @property
    def lock_path(self) -> str:
        """The lock file beside the target."""
        return os.path.join(self.parent, f".{self.name}.lock")

    def _lock(self) -> None:
        """Take the lock or raise OutputTargetError naming the process that holds it."""
        while True:
            try:
                fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise self._cannot_write(exc) from None
            if not _try_lock(fd):
                holder = _read_pid(fd)
                os.close(fd)
                who = f"another run (process {holder})" if holder else "another run"
                raise OutputTargetError(
                    self.target,
                    f"{who} is writing its {self.what} there; wait for it to finish or choose another folder",
                )
            if _same_file(fd, self.lock_path):  # not unlinked by a releasing writer meanwhile
                break
            os.close(fd)
        with contextlib.suppress(OSError):  # the process id only serves the message of a refused writer
            os.ftruncate(fd, 0)
            os.write(fd, str(os.getpid()).encode())
        self._lock_fd = fd

    def _unlock(self) -> None:
        if self._lock_fd is None:
            return
        if fcntl is not None:  # unlink while locked: a waiting writer then sees a stale inode and retries
            try:
                os.unlink(self.lock_path)
            except OSError:
                pass
        os.close(self._lock_fd)
        self._lock_fd = None

    # ------------------------------------------------------------------ closing
    @property
    def closed(self) -> bool:
        """True once committed or aborted."""
        return self.temp is None

    def commit(self) -> str:
        """Rename the temporary folder into place (replacing the old folder as a whole); returns the
        target. On an OSError the temporary folder is removed, the old folder kept, and the error raised."""
        if self.closed:
            return self.target
        try:
            if os.path.isdir(self.target):
                _exchange(self.temp, self.target)  # self.temp now holds the old folder
                shutil.rmtree(self.temp, ignore_errors=True)
            else:
                os.rename(self.temp, self.target)
            _sync_folder(self.parent)
        except OSError:
            self.abort()
            raise
        self.temp = None
        self._unlock()
        return self.target

    def abort(self) -> None:
        """Remove the temporary folder and release the lock; the target is left as it was."""
        if self.temp is not None:
            shutil.rmtree(self.temp, ignore_errors=True)
            self.temp = None
        self._unlock()

    def __enter__(self) -> OutputFolder:
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if kind is None:
            self.commit()
        else:
            self.abort()


# ----------------------------------------------------------------------------- helpers
def _names(entries: list[str], shown: int = 3) -> str:
    listed = ", ".join(entries[:shown])
    return listed + (f" and {len(entries) - shown} more" if len(entries) > shown else "")


def _try_lock(fd: int) -> bool:
    """An exclusive, non-blocking lock on the open file ``fd``; False if another holds it."""
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:  # pragma: no cover - Windows
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:
        return False
    return True


def _read_pid(fd: int) -> str:
    try:
        return os.pread(fd, 32, 0).decode(errors="replace").strip()
    except (OSError, AttributeError):  # pragma: no cover - no pread on Windows
        return ""


def _same_file(fd: int, path: str) -> bool:
    try:
        a, b = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(new: str, old: str) -> None:
    """Swap two folders' names: atomically where the system can, else in two renames
    (the old folder is moved aside first, so the target never mixes the two)."""
    if _renameat2_exchange(new, old):
        return
    aside = tempfile.mkdtemp(prefix=f".{os.path.basename(old)}.old-", dir=os.path.dirname(old))
    os.rmdir(aside)
    os.rename(old, aside)
    try:
        os.rename(new, old)
    except OSError:
        os.rename(aside, old)
        raise
    os.rename(aside, new)


def _renameat2_exchange(a: str, b: str) -> bool:
    """True if Linux exchanged the two paths in one step; False where that is not available."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError, TypeError):
        return False
    if fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EPERM):
        return False
    raise OSError(code, os.strerror(code), b)


def _sync_folder(path: str) -> None:
    """Make a rename durable (best effort: not every system can fsync a folder)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
