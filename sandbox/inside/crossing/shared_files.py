"""The run's shared folder as one user's files: what one process makes there, the other may read and write.

Runs inside the sandbox (stdlib only), in both processes. Both work in one folder of the run's shared directory
(policy.working_folder), and a test's tmp_path is there too. Where the two processes run as two uids, a file's
mode decides what the other may do with it, and not every writer asks for the 0666 that the umask of 0 leaves
whole: sqlite makes its databases 0644, tempfile and os.open(..., 0o600) less. So before each hand-over to the
other process (a request, an answer), each side gives the others the rights its files give their owner, as one
uid would have them: the same files, read and written by both. Where both run as one uid (no root to give two),
modes already mean that, and nothing is done.

Walked through directory descriptors, never following a link, and only what this process owns is changed: the other
process, which may change the folder at any time, cannot steer a change elsewhere. Walked only when something was made
or moved in there since the last walk, which the folders' modification times tell (one stat of each: a test may call the
code 20,000 times in a loop). Not inotify, which tells in one poll but whose instance costs a process 10 to 20 ms to
close (the kernel waits out a grace period): every run would pay that, for loops few tests have.
"""

from __future__ import annotations

import os
import stat
import threading
import time

# A directory's mtime may come from a coarse clock (a jiffy, up to 10 ms): a change within the same tick as the last
# look leaves it as it was, so a directory changed that recently is looked at again. On the tmpfs of a run, its size
# (20 bytes an entry) tells a new entry in any case.
_TICK_NS = 10_000_000
_MAX_ENTRIES = 10_000  # per hand-over; a folder filled past this is the run's disk limit's business
_HELD = 4  # folders held open between hand-overs (the shared one, the working one, a tmp_path or two): each is one
# of the 64 descriptors a process may have


class SharedFolder:
    """Hands over the files this process made in the shared folder (hand_over, before every message out)."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.uid = os.getuid()
        try:
            # The worker makes the folder; when it is not this process's uid, the other process's is not either.
            self.active = os.stat(root).st_uid != self.uid
        except OSError:
            self.active = False
        # Each folder walked, held open (an fstat costs half a path's lstat under Landlock) or, past a few, by path;
        # with its (mtime_ns, inode, size) as the walk found them.
        self.seen: list[tuple[int | str, tuple[int, int, int]]] = []
        self.walked = 0  # when, in time.time_ns()
        self.lock = threading.Lock()
        self.walking = threading.local()

    def hand_over(self) -> None:
        """Give the other uid its rights to every file and folder this process made since the last hand-over."""
        if not self.active or getattr(self.walking, "now", False):
            # this thread is handing over already: a __del__ of the code's that ran during the walk (a collection)
            # and calls the tests back; the walk under way hands over what it finds
            return
        with self.lock:  # several threads of the tests may call the code at once (channels.py)
            self.walking.now = True
            try:
                if self._changed():
                    self._walk()
            finally:
                self.walking.now = False

    def _changed(self) -> bool:
        if not self.seen:
            return True
        for folder, known in self.seen:
            try:
                info = os.fstat(folder) if type(folder) is int else os.lstat(folder)
            except OSError:
                return True
            if (info.st_mtime_ns, info.st_ino, info.st_size) != known or self.walked - info.st_mtime_ns < _TICK_NS:
                return True
        return False

    def _walk(self) -> None:
        for folder, _ in self.seen:
            if type(folder) is int:
                try:
                    os.close(folder)
                except OSError:  # the code closed it itself
                    pass
        self.seen = []
        self.walked = time.time_ns()
        try:
            fd = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            return
        try:
            self._directory(fd, self.root, [_MAX_ENTRIES])
        except OSError:  # out of descriptors (the code's own doing), or a folder gone as it was read
            pass

    def _directory(self, fd: int, path: str, budget: list[int]) -> None:
        """Hand over the folder open at fd and everything below it; fd is then held open in seen, or closed."""
        held = False
        try:
            info = os.fstat(fd)
            held = sum(type(folder) is int for folder, _ in self.seen) < _HELD
            self.seen.append((fd if held else path, (info.st_mtime_ns, info.st_ino, info.st_size)))
            self._share(fd, info)
            subdirectories = []
            with os.scandir(fd) as entries:
                for entry in entries:
                    budget[0] -= 1
                    if budget[0] < 0:
                        return
                    if entry.is_dir(follow_symlinks=False):
                        subdirectories.append(entry.name)
                    elif entry.is_file(follow_symlinks=False):
                        self._file(fd, entry.name)
            for name in subdirectories:
                try:
                    child = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
                except OSError:
                    continue
                self._directory(child, os.path.join(path, name), budget)
        finally:
            if not held:
                os.close(fd)

    def _file(self, dir_fd: int, name: str) -> None:
        try:
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY, dir_fd=dir_fd)
        except OSError:  # not readable by its owner, a socket, or gone: nothing to hand over
            return
        try:
            info = os.fstat(fd)
            if stat.S_ISREG(info.st_mode):
                self._share(fd, info)
        finally:
            os.close(fd)

    def _share(self, fd: int, info: os.stat_result) -> None:
        if info.st_uid != self.uid:
            return
        owner = info.st_mode & 0o700
        mode = stat.S_IMODE(info.st_mode) | owner >> 3 | owner >> 6
        if mode != stat.S_IMODE(info.st_mode):
            try:
                os.fchmod(fd, mode)
            except OSError:
                pass
