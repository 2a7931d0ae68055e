"""The threads that run the batched kernel: chunks of envs claimed one at a time.

`run_chunks(fn, n, threads)` splits ``range(n)`` into contiguous chunks and calls
``fn(lo, hi)`` for each, on the calling thread and ``threads - 1`` helper threads (made
once per process, daemons). ``fn`` is expected to call a numba kernel that releases the
GIL, so the chunks run at the same time on different cores.

Why not a ``prange`` kernel: a parallel region ends at a barrier that waits for every
thread of the team, also for one the operating system has not scheduled yet, so on a
shared machine every short call (a few steps, as an RL loop makes them) pays a
scheduler delay. Here the chunks go to whichever thread asks first: a helper that wakes
late finds nothing left and the call returns when the claimed chunks are done. The
chunks are fixed by (n, the chunk count) only, and every env is computed by the same
code whichever thread takes it, so results do not depend on the number of threads.

One call runs at a time; a call made while another thread's call is running runs its
chunks on its own thread.
"""

from __future__ import annotations

import itertools
import threading

__all__ = ["run_chunks"]

#: Chunks per thread: enough to balance uneven envs (contact), few enough that the
#: per-chunk dispatch of the kernel stays small against its work.
CHUNKS_PER_THREAD = 4


class _Job:
    """One call: `fn` over `chunks` contiguous chunks of range(n)."""

    def __init__(self, fn, n, chunks):
        self.fn, self.n, self.chunks = fn, n, chunks
        self.next = itertools.count()          # next() is atomic under the GIL
        self.lock = threading.Lock()
        self.left = chunks
        self.done = threading.Event()
        self.error = None
        self.helper_slots = 0

    def join(self):
        """Whether a helper may take part (the call's thread count is not yet reached)."""
        with self.lock:
            if self.helper_slots <= 0:
                return False
            self.helper_slots -= 1
            return True

    def work(self):
        """Claim and run chunks until none is left."""
        while True:
            c = next(self.next)
            if c >= self.chunks:
                return
            try:
                if self.error is None:
                    self.fn((c * self.n) // self.chunks, ((c + 1) * self.n) // self.chunks)
            except BaseException as exc:    # re-raised by the caller
                self.error = exc
            finally:
                with self.lock:
                    self.left -= 1
                    if self.left == 0:
                        self.done.set()


class _Pool:
    def __init__(self):
        self._cv = threading.Condition()
        self._job = None
        self._generation = 0
        self._helpers = 0
        self._busy = threading.Lock()

    def _helper(self):
        seen = 0
        while True:
            with self._cv:
                while self._generation == seen:
                    self._cv.wait()
                seen = self._generation
                job = self._job
            if job is not None and job.join():
                job.work()

    def run(self, fn, n, threads):
        chunks = min(n, CHUNKS_PER_THREAD * threads)
        if threads <= 1 or chunks <= 1 or not self._busy.acquire(blocking=False):
            fn(0, n)
            return
        try:
            while self._helpers < threads - 1:
                threading.Thread(target=self._helper, name="merganser-batched",
                                 daemon=True).start()
                self._helpers += 1
            job = _Job(fn, n, chunks)
            job.helper_slots = threads - 1
            with self._cv:
                self._job = job
                self._generation += 1
                self._cv.notify_all()
            job.work()
            job.done.wait()
            with self._cv:
                self._job = None
        finally:
            self._busy.release()
        if job.error is not None:
            raise job.error


_POOL = _Pool()


def run_chunks(fn, n, threads):
    """Call ``fn(lo, hi)`` over contiguous chunks of range(n) on `threads` threads (the
    calling one included); see the module docstring."""
    _POOL.run(fn, n, threads)
