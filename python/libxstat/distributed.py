# SPDX-License-Identifier: LGPL-2.1-or-later
"""A tree scan spread over a Dask cluster: libxstat's directory streams
on every client of a shared filesystem.

scan(paths, client) walks the trees under @paths as ``xstat -r --json``
does and returns a dask.bag of its records (dicts of the tool's JSON
schema, libxstat.records); with out=DIR the records are written as
JSON-lines part files instead, each line exactly the tool's.

How the work is spread: a task reads one directory, or several small
sibling directories, with the directory streams of xstat_opendir(3) (in
C, entered and reported as xstat -r does), and the directories one level
below them, each started on the worker's threads as soon as its entry is
read; it returns their records and the subdirectories left below that
level, which the client submits as new tasks.
Dask's scheduler places the tasks and moves queued ones from busy workers
to idle ones (work stealing).  A task's input is only the paths it is to
read, so a task lost with its worker is run again elsewhere, and its
records (identified by the directories it read: one task per directory)
replace the lost ones: nothing is lost and nothing counted twice.

How much a task holds: a task costs a worker thread per_task_s whatever
it does (empty tasks are timed at the start; then the time the threads
did not spend reading, per task), a directory entry costs it
per_entry_s (measured from the tasks that come back), so a
directory of per_task_s / per_entry_s entries is just worth a task of its
own (Summary.worth_a_task); sibling directories are batched until they
are expected to hold ten times that.

Every worker must see the same tree: the roots are checked on each worker
first, and a root missing on one is an error naming that worker.

Run it: python3 -m libxstat.distributed --scheduler ADDRESS --out DIR
PATH... (or --local N for N worker processes on this machine, whose
space is a temporary directory of the run's own, removed at the end);
--replace scans again into a DIR that holds an earlier scan's parts.
libxstat-distributed(7) has the details.
"""

import errno as _errno
import hashlib as _hashlib
import json as _json
import os as _os
import shutil as _shutil
import socket as _socket
import stat as _stat
import tempfile as _tempfile
import threading as _threading
import time as _time
import typing as _t

from . import Request
from . import _libxstat as _c

__all__ = ["scan", "run", "Summary", "DEFAULT_FIELDS", "to_dataframe",
           "PathMissingOnWorker", "OutHoldsAnotherScan"]

#: What ``xstat -r --json`` asks for: the basic stats and the birth time
#: (``xstat -e`` adds the generation and data version: fields=EXTENDED).
DEFAULT_FIELDS = Request.BASIC | Request.BTIME

# A task reads at most this many directories: bounds what a lost worker
# costs to redo.
_MAX_DIRS_PER_TASK = 256
# A batch of directories is to hold this many times the entries that
# pay for a task (Summary.worth_a_task): the scheduling then costs at
# most about a tenth of the scan.
_OVERHEAD_SHARE = 10
# A task reads the directories this many levels below its own (_read()).
_LEVELS = 1


class PathMissingOnWorker(OSError):
    """A root the scan was given is missing (or not the same kind of
    file) on one of the workers: they do not share one filesystem."""


# ---- the worker's side: read directories, make records ----

# One directory to read: (path, depth, (dev, ino) its entry had or None,
# the (dev, ino) of its ancestors for the loop check, type known).
_Dir = _t.Tuple[bytes, int, _t.Optional[_t.Tuple[int, int]],
                _t.Tuple[_t.Tuple[int, int], ...], bool]


def _part_name(work: _t.Sequence[_t.Any]) -> str:
    """The part file of a task: named by the directories it reads, so a
    task run again writes the same file."""
    h = _hashlib.sha1()
    for item in work:
        h.update(repr(item[1][0] if item[0] == "dir" else item[1]).encode())
        h.update(b"\0")
    return f"part-{h.hexdigest()}.jsonl"


def _depth(item: _t.Any) -> int:
    return 0 if item[0] == "root" else item[1][1]


def _chunks(items: _t.List[_t.Any], n: int) -> _t.Iterator[_t.List[_t.Any]]:
    """@items in at most @n runs of about equal length."""
    size = -(-len(items) // max(n, 1))
    for i in range(0, len(items), size):
        yield items[i:i + size]


# The threads that tasks read on (_Reader), one pool per process and
# size: a worker's tasks share its pool, so that its reads in flight are
# bounded by its size however many tasks run at once.
_pools: _t.Dict[int, _t.Any] = {}
_pools_lock = _threading.Lock()


def _pool(threads: int) -> _t.Any:
    from concurrent.futures import ThreadPoolExecutor

    with _pools_lock:
        if threads not in _pools:
            _pools[threads] = ThreadPoolExecutor(
                threads, thread_name_prefix="xstat-read")
        return _pools[threads]


def _start_pool(threads: int) -> None:
    """Every thread of the pool started, before the scan: a thread is
    started by the call that submits to it, which waits until it runs."""
    if threads <= 1:
        return
    ready = _threading.Barrier(threads + 1)
    for _ in range(threads):
        _pool(threads).submit(ready.wait, 10)
    ready.wait(10)


class _Reader:
    """_read()'s state: what the task's reads found, and the directories
    left to a later task."""

    def __init__(self, fields: int, max_depth: _t.Optional[int],
                 taken: _t.Optional[int], limit: int, threads: int,
                 sink: _t.Callable[[bytes], None], fd: int):
        import queue

        self.args = (fields, max_depth, taken)
        self.limit = limit
        self.threads = threads
        self.sink = sink
        self.fd = fd
        self.pool = _pool(threads) if threads > 1 else None
        self.done: _t.Any = queue.SimpleQueue()
        self.started = 0
        self.stopped = False    # the task failed: start nothing more
        self.acc: _t.Dict[str, _t.Any] = {
            "subdirs": [], "entries": 0, "errors": 0, "unread": [],
            "dirs": 0, "dir_bytes": 0, "dir_entries": 0, "cpu": 0.0,
            "written": 0}

    def _scan(self, work: _t.List[_t.Any]) -> _t.Tuple[_t.Tuple, float]:
        """_scan() @work, records in memory, on a thread of the task's;
        with more than one, each subdirectory is handed to found() as
        soon as its entry is read, for another thread to start on."""
        if self.stopped:
            return None, 0.0
        if self.pool is None:   # on the task's thread: run() times it
            # one read at a time: straight into the part file, if any
            return _c._scan(work, *self.args, self.fd), 0.0
        c0 = _time.thread_time()
        got = _c._scan(work, *self.args, -1, self.found)
        return got, _time.thread_time() - c0

    def found(self, subdirs: _t.List[_t.Any]) -> None:
        """Called by a read with the subdirectories it found: the task's
        thread takes them (a read goes on at once)."""
        self.done.put(subdirs)

    def descend(self, subdirs: _t.List[_t.Any]) -> None:
        """Subdirectories within the limit are read here, on another of
        the task's threads; the others are left to a later task."""
        if self.stopped:
            return
        inner = []
        for sub in subdirs:
            if sub[0][1] <= self.limit:
                inner.append(("dir", sub[0]))
            else:
                self.acc["subdirs"].append(sub)
        if inner:
            self.start(inner)

    def start(self, items: _t.List[_t.Any]) -> None:
        for chunk in _chunks(items, self.threads):
            self.acc["dirs"] += len(chunk)
            self.started += 1
            if self.pool is None:
                self.done.put(self._scan(chunk))
            else:
                self.pool.submit(self._scan, chunk).add_done_callback(
                    self.done.put)

    def run(self, work: _t.Sequence[_t.Any]) -> _t.Dict[str, _t.Any]:
        acc = self.acc
        c0 = _time.thread_time()
        self.start(list(work))
        finished = 0
        try:
            # a read starts its subdirectories' before it ends: all are
            # done when as many have ended as were started
            while finished < self.started:
                f = self.done.get()
                if isinstance(f, list):     # found() by a read
                    self.descend(f)
                    continue
                got, cpu = f if self.pool is None else f.result()
                finished += 1
                records, subdirs, entries, errors, dbytes, dents, \
                    unread = got
                if isinstance(records, int):
                    acc["written"] += records
                elif records:
                    self.sink(records)
                    acc["written"] += len(records)
                acc["entries"] += entries
                acc["errors"] += errors
                acc["dir_bytes"] += dbytes
                acc["dir_entries"] += dents
                acc["unread"].extend(unread)
                acc["cpu"] += cpu
                self.descend(subdirs)
        except BaseException:
            self.stopped = True
            raise
        # the task's own thread: the records written, and the reads
        # where it made them itself
        acc["cpu"] += _time.thread_time() - c0
        return acc


def _read(work: _t.Sequence[_t.Any], fields: int,
          max_depth: _t.Optional[int], taken: _t.Optional[int],
          levels: int, threads: int,
          sink: _t.Callable[[bytes], None],
          fd: int = -1) -> _t.Dict[str, _t.Any]:
    """Read @work and, below it, every directory up to @levels levels
    under the shallowest of its items, on @threads threads of this
    task's own; each directory's records to @sink (bytes of lines) as it
    is read, or on one thread, with @fd, written to @fd by _scan().  The subdirectories left are the task's result: which
    directories a task reads depends on its work alone, so a task run
    again reads the same ones (its part file replaces the lost one's).
    Descending here spares the deeper directories the way through the
    scheduler and the client and back, which is on the critical path
    once per level handed over."""
    limit = min(_depth(item) for item in work) + levels
    return _Reader(fields, max_depth, taken, limit, threads, sink,
                   fd).run(work)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[_os.write(fd, view):]


def _read_to_part(work: _t.Sequence[_t.Any], fields: int,
                  max_depth: _t.Optional[int], taken: _t.Optional[int],
                  levels: int, threads: int,
                  out: str) -> _t.Tuple[_t.Optional[str], _t.Dict]:
    """_read() @work with its records written to its part file in @out,
    whole or not at all: under a temporary name, renamed over any earlier
    run's file (none where there are no records).  Returns the part's
    name and what _read() returned.  Not synced: a killed worker's data
    is in the page cache all the same, and a machine that goes down takes
    the scan with it (run it again)."""
    name = _part_name(work)
    final = _os.path.join(out, name)
    # the host, process and thread that write it: unique on a shared
    # filesystem too
    tmp = _os.path.join(out, f".{name}.{_socket.gethostname()}."
                             f"{_os.getpid()}.{_threading.get_ident()}.tmp")
    fd = _os.open(tmp, _os.O_WRONLY | _os.O_CREAT | _os.O_TRUNC |
                  _os.O_CLOEXEC, 0o666)
    try:
        try:
            got = _read(work, fields, max_depth, taken, levels, threads,
                        lambda records: _write_all(fd, records), fd)
        finally:
            _os.close(fd)
        if got["written"]:
            _os.replace(tmp, final)
            return name, got
    except BaseException:
        _os.unlink(tmp)
        raise
    _os.unlink(tmp)
    return None, got


def _task(work: _t.Sequence[_t.Any], fields: int,
          max_depth: _t.Optional[int],
          out: _t.Optional[str],
          taken: _t.Optional[int] = None, levels: int = 0,
          threads: int = 1) -> _t.Dict[str, _t.Any]:
    """Read the roots and directories of @work, and those up to @levels
    levels below them on @threads threads (_read()), as xstat -r does,
    in C (the extension's _scan(): the tool's records, written by its
    JSON writer).  Returns what the client needs (subdirectories left,
    counts, the directories entered but not read, timing) and the
    records under "lines" unless they went to a part file in @out."""
    t0 = _time.perf_counter()
    part = lines = None
    if out is not None:
        part, got = _read_to_part(work, fields, max_depth, taken, levels,
                                  threads, out)
    else:
        chunks: _t.List[bytes] = []
        got = _read(work, fields, max_depth, taken, levels, threads,
                    chunks.append)
        # one line per record; the writer escapes every other line break
        lines = b"".join(chunks).decode("utf-8").split("\n")[:-1]
    meta = dict(got, elapsed=_time.perf_counter() - t0,
                worker=_worker_address(), pid=_os.getpid(), part=part)
    return {"meta": meta, "lines": lines}


def _worker_address() -> str:
    try:
        from distributed import get_worker
        return get_worker().address
    except (ImportError, ValueError):
        return f"pid {_os.getpid()}"


def _meta(result: _t.Dict[str, _t.Any]) -> _t.Dict[str, _t.Any]:
    return result["meta"]


def _lines(result: _t.Dict[str, _t.Any]) -> _t.List[str]:
    return result["lines"] or []


def _noop() -> None:
    return None


def _check_roots(paths: _t.Sequence[bytes]) -> _t.List[_t.Tuple[bytes, str]]:
    """On one worker: the roots it cannot see, and why."""
    missing = []
    for p in paths:
        try:
            _os.lstat(p)
        except OSError as e:
            missing.append((p, e.strerror or str(e)))
    return missing


# ---- the client's side: spread the work, learn the costs ----

class Summary:
    """What a scan did: counts, time, the workers used (address: tasks)
    and the costs it measured, in a worker thread's seconds: empty_task_s,
    an empty task; per_task_s, a task as the scan met it (the time the
    threads did not spend reading, per task, once there were two tasks
    per thread); per_entry_s, an entry; worth_a_task, the entries a
    directory needs to be worth a task of its own.  unread: (path,
    errno) of each directory whose entry has its record but which could
    not be read, or not whole (errno 0: it changed during the walk and
    was not entered); each is one of the errors, as for xstat -r, which
    writes no record of its own for it either.  task_cpu_s: the CPU
    seconds the tasks' threads spent in them (the work itself, without
    the cluster's own)."""

    def __init__(self) -> None:
        self.entries = 0
        self.errors = 0
        self.tasks = 0
        self.dirs = 0
        self.elapsed = 0.0
        self.workers: _t.Dict[str, int] = {}     # address: tasks run
        self.empty_task_s = 0.0
        self.per_task_s = 0.0
        self.per_entry_s = 0.0
        self.worth_a_task = 1
        self.parts: _t.List[str] = []
        self.unread: _t.List[_t.Tuple[bytes, int]] = []
        self.task_cpu_s = 0.0

    @property
    def rate(self) -> float:
        return self.entries / self.elapsed if self.elapsed > 0 else 0.0

    def __str__(self) -> str:
        return (f"{self.entries} entries, {self.errors} errors, "
                f"{self.elapsed:.2f} s, {self.rate:.0f} entries/s, "
                f"{len(self.workers)} workers used, {self.tasks} tasks for "
                f"{self.dirs} directories (task {self.per_task_s * 1e3:.2f} "
                f"ms, empty {self.empty_task_s * 1e3:.2f} ms, entry "
                f"{self.per_entry_s * 1e6:.1f} us: a task is worth "
                f"{self.worth_a_task} entries; tasks' CPU "
                f"{self.task_cpu_s:.2f} s)")


def _per_task_cost(client: _t.Any, rounds: int = 100) -> float:
    """What a task costs a worker thread beyond its work: @rounds empty
    tasks submitted at once, the time they took on all the cluster's
    threads, per task."""
    threads = sum(client.nthreads().values()) or 1
    client.submit(_noop, pure=False).result()   # connections made
    t0 = _time.perf_counter()
    client.gather(client.map(_noop_n, range(rounds), pure=False))
    return (_time.perf_counter() - t0) * threads / rounds


def _noop_n(i: int) -> int:
    return i


class _Walk:
    def __init__(self, client: _t.Any, fields: int,
                 max_depth: _t.Optional[int], out: _t.Optional[str],
                 batch: _t.Optional[int],
                 progress: _t.Optional[_t.Callable[[Summary], None]]):
        self.client = client
        self.fields = int(fields)
        # as the tool's JSON: why a class (3) field asked for is missing
        if self.fields & int(Request.BTIME | Request.GEN |
                             Request.DATA_VERSION):
            self.fields |= int(Request.WHY_MISSING)
        # the tool's "taken" with a change token: before the first read
        self.taken = _time.time_ns() if \
            self.fields & int(Request.CHANGE_TOKEN) else None
        self.max_depth = max_depth
        self.out = out
        self.batch = batch
        nthreads = client.nthreads().values()
        self.threads = sum(nthreads) or 1
        # a task reads on as many threads as its worker has
        self.task_threads = max(nthreads, default=1)
        # a batch fixed by hand fixes what a task reads: no descent
        self.levels = _LEVELS if batch is None else 0
        self.inflight = 0       # tasks submitted, not yet learnt from
        self.running: _t.Set[_t.Any] = set()    # what the loop waits for
        self.progress = progress
        self.s = Summary()
        self.record_futures: _t.List[_t.Any] = []
        self.dir_bytes = 0
        self.dir_entries = 0
        self.work_s = 0.0

    def _expected(self, size: int) -> float:
        """Entries expected in a directory of @size bytes, from those
        read so far (a filesystem's directory size is bytes, blocks or
        entries: only the ratio seen on this tree says which)."""
        if self.dir_bytes > 0 and size > 0:
            return size * self.dir_entries / self.dir_bytes
        return self.dir_entries / max(self.s.dirs, 1)

    def _target(self) -> float:
        if self.batch is not None:
            return self.batch
        return _OVERHEAD_SHARE * self.s.worth_a_task

    def _groups(self, subdirs: _t.List[_t.Tuple[_Dir, int]]):
        """Siblings in groups worth a task each, and in as many groups as
        there are idle threads: batching must not leave one idle."""
        expected = [self._expected(size) for _, size in subdirs]
        idle = self.threads - self.inflight
        target = self._target()
        if self.batch is None and idle > 0:
            target = min(target, sum(expected) / idle)
        group: _t.List[_t.Any] = []
        load = 0.0
        for (d, _), e in zip(subdirs, expected):
            group.append(("dir", d))
            load += e
            if load >= target or len(group) >= _MAX_DIRS_PER_TASK:
                yield group
                group, load = [], 0.0
        if group:
            yield group

    def _submit(self, work: _t.List[_t.Any], pending: _t.Any) -> None:
        key = "xstat-scan-" + _part_name(work)[5:-6]
        fut = self.client.submit(_task, work, self.fields, self.max_depth,
                                 self.out, self.taken, self.levels,
                                 self.task_threads, key=key, pure=False)
        if self.out is None:
            self.record_futures.append(
                self.client.submit(_lines, fut, key=key + "-lines"))
        self.inflight += 1
        # only what the loop waits for: the records stay the lines' own
        tracked = self.client.submit(_meta, fut, key=key + "-meta") \
            if self.out is None else fut
        self.running.add(tracked)
        pending.add(tracked)

    def _learn(self, m: _t.Dict[str, _t.Any], elapsed: float) -> None:
        s = self.s
        s.entries += m["entries"]
        s.errors += m["errors"]
        s.unread.extend(m["unread"])
        s.task_cpu_s += m["cpu"]
        s.dirs += m["dirs"]
        s.tasks += 1
        s.workers[m["worker"]] = s.workers.get(m["worker"], 0) + 1
        if m["part"]:
            s.parts.append(m["part"])
        self.dir_bytes += m["dir_bytes"]
        self.dir_entries += m["dir_entries"]
        self.work_s += m["elapsed"]
        # what the threads did not spend reading, per task: the
        # scheduling as the scan meets it (with the idle time at the
        # start and the end), never below an empty task's cost
        if s.tasks >= 2 * self.threads:
            seen = (elapsed * self.threads - self.work_s) / s.tasks
            s.per_task_s = max(s.empty_task_s, seen)
        if s.entries:
            s.per_entry_s = self.work_s / s.entries
            s.worth_a_task = max(1, round(s.per_task_s / s.per_entry_s))

    def run(self, roots: _t.List[bytes]) -> Summary:
        try:
            return self._run(roots)
        except BaseException:
            # no task of a failed scan starts after it
            self.client.cancel(list(self.running))
            raise

    def _run(self, roots: _t.List[bytes]) -> Summary:
        from distributed import as_completed

        if self.levels:
            self.client.run(_start_pool, self.task_threads)
        self.s.empty_task_s = _per_task_cost(self.client)
        self.s.per_task_s = self.s.empty_task_s
        t0 = _time.perf_counter()
        pending = as_completed(with_results=True)
        for root in roots:
            self._submit([("root", root)], pending)
        # results come in batches, fetched while the loop works
        for batch in pending.batches():
            for fut, m in batch:
                if self.out is not None:
                    m = m["meta"]
                self.running.discard(fut)
                fut.release()
                self.inflight -= 1
                self._learn(m, _time.perf_counter() - t0)
                self.s.elapsed = _time.perf_counter() - t0
                if self.progress:
                    self.progress(self.s)
                for group in self._groups(m["subdirs"]):
                    self._submit(group, pending)
        self.s.elapsed = _time.perf_counter() - t0
        return self.s


def _check_workers(client: _t.Any, roots: _t.List[bytes]) -> None:
    missing = client.run(_check_roots, roots)
    for worker, gone in sorted(missing.items()):
        for path, why in gone:
            raise PathMissingOnWorker(
                _errno.ENOENT,
                f"{_os.fsdecode(path)} cannot be seen on worker {worker} "
                f"({why}): every worker must mount the same filesystem "
                f"at the same place")


def _roots(paths: _t.Union[str, bytes, _t.Sequence[_t.Any]]) -> _t.List[bytes]:
    if isinstance(paths, (str, bytes)) or hasattr(paths, "__fspath__"):
        paths = [paths]
    return [_os.fsencode(p) for p in paths]


def _clean_temporaries(out: str) -> None:
    """Remove what killed workers left half written."""
    for name in _os.listdir(out):
        if name.startswith(".part-") and name.endswith(".tmp"):
            try:
                _os.unlink(_os.path.join(out, name))
            except FileNotFoundError:
                pass


class OutHoldsAnotherScan(FileExistsError):
    """The directory given as out= holds the part files of another scan
    and replace=True was not given, or it holds other files too (their
    names in .others): nothing was written."""

    others: _t.List[str] = []


def _is_ours(name: str) -> bool:
    """A part file, or one that a killed worker left half written."""
    return (name.startswith("part-") and name.endswith(".jsonl")) or \
        (name.startswith(".part-") and name.endswith(".tmp"))


def _refuse_out(out: str, replace: bool) -> bool:
    """Raise OutHoldsAnotherScan where @out may not be written; True
    where it holds an earlier scan that @replace is to replace."""
    try:
        names = _os.listdir(out)
    except FileNotFoundError:
        return False
    if not any(n.startswith("part-") for n in names):
        return False
    if not replace:
        raise OutHoldsAnotherScan(
            _errno.EEXIST, "holds the part files of another scan "
            "(replace=True writes the new scan beside them and puts it in "
            "their place once it is complete)", out)
    others = sorted(n for n in names if not _is_ours(n))
    if _os.path.islink(out):
        others = [out + " is a symbolic link; give its target"]
    if others:
        e = OutHoldsAnotherScan(
            _errno.EEXIST, "holds the part files of another scan and other "
            "files (" + ", ".join(others[:3]) +
            (", ..." if len(others) > 3 else "") + "): not replaced", out)
        e.others = others
        raise e
    return True


def _prepare_out(out: str, replace: bool) -> _t.Optional[str]:
    """Make @out, or with an earlier scan in it to replace, the directory
    beside it that the new parts go to (returned; None: write into @out
    itself)."""
    if not _refuse_out(out, replace):
        _os.makedirs(out, exist_ok=True)
        return None
    parent, base = _os.path.split(_os.path.abspath(out))
    new = _tempfile.mkdtemp(prefix=f".{base}.xstat-new.", dir=parent)
    # the workers (other users, other hosts) write where they wrote before
    _os.chmod(new, _stat.S_IMODE(_os.stat(out).st_mode))
    return new


def _swap_in(new: str, out: str) -> None:
    """Put the complete scan @new in the place of @out, then remove the
    old parts.  Both are in one directory: two renames, and for the
    moment between them @out is absent rather than mixed."""
    parent, base = _os.path.split(_os.path.abspath(out))
    old = _tempfile.mkdtemp(prefix=f".{base}.xstat-old.", dir=parent)
    _os.rename(out, old + "/d")
    try:
        _os.rename(new, out)
    except OSError:
        _os.rename(old + "/d", out)
        raise
    _shutil.rmtree(old)


def _remove_unfinished(new: str) -> None:
    """Remove the directory of a scan that failed.  A task already
    running when it failed may still write a part there (a worker thread
    cannot be stopped): tries again while one appears, for a while."""
    for _ in range(100):
        _shutil.rmtree(new, ignore_errors=True)
        if not _os.path.lexists(new):
            return
        _time.sleep(0.1)


def run(paths: _t.Any, client: _t.Any, *, fields: int = DEFAULT_FIELDS,
        max_depth: _t.Optional[int] = None, out: _t.Optional[str] = None,
        batch: _t.Optional[int] = None,
        progress: _t.Optional[_t.Callable[[Summary], None]] = None,
        replace: bool = False) -> _t.Tuple[Summary, _t.List[_t.Any]]:
    """Scan and return the Summary and, without @out, the futures of the
    record lines (one list of lines per task, held by the workers).
    With @replace, an @out that holds an earlier scan's part files (and
    nothing else) gets the new ones in a directory beside it, which
    takes its place once the scan is complete; a scan that raises leaves
    the earlier one as it was."""
    roots = _roots(paths)
    _check_workers(client, roots)
    new = _prepare_out(out, replace) if out is not None else None
    try:
        w = _Walk(client, fields, max_depth, new or out, batch, progress)
        summary = w.run(roots)
        if out is not None:
            _clean_temporaries(new or out)
        if new is not None:
            _swap_in(new, out)
            new = None
    finally:
        if new is not None:
            _remove_unfinished(new)
    return summary, w.record_futures


def scan(paths: _t.Any, client: _t.Any, fields: int = DEFAULT_FIELDS,
         max_depth: _t.Optional[int] = None, *,
         out: _t.Optional[str] = None, batch: _t.Optional[int] = None,
         progress: _t.Optional[_t.Callable[[Summary], None]] = None,
         replace: bool = False) -> _t.Any:
    """Scan the trees under @paths on the cluster of @client.

    Returns a dask.bag of records: one dict per file, the members of
    ``xstat -r --json`` (path, mode, size, mtime {sec, nsec}, ..., or
    error {errno, message}).  @fields are the libxstat.Request bits asked
    for (default: the tool's); @max_depth, as find's -maxdepth (0: the
    roots alone).  With @out, the records are written as JSON-lines part
    files in that directory (DIR/part-*.jsonl, each line exactly the
    tool's), and the bag reads them.  @batch fixes the entries a task is
    to hold (default: measured, and a task reads the directories one
    level below its own too; with @batch, only its own); @progress is
    called with the running Summary after each task, before the
    directories it found are submitted; @replace, as for run().
    """
    import dask.bag as db

    summary, futures = run(paths, client, fields=fields, max_depth=max_depth,
                           out=out, batch=batch, progress=progress,
                           replace=replace)
    if out is not None:
        if not summary.parts:
            return db.from_sequence([], npartitions=1)
        bag = db.read_text([_os.path.join(out, p) for p in summary.parts],
                           encoding="utf-8", errors="surrogateescape")
        return bag.map(_json.loads)
    if not futures:
        return db.from_sequence([], npartitions=1)
    return db.from_delayed(futures).map(_json.loads)


# The flat columns of to_dataframe(): name, and the record's value.
_COLUMNS: _t.Tuple[_t.Tuple[str, _t.Callable[[dict], _t.Any]], ...] = (
    ("path", lambda r: r["path"]),
    ("errno", lambda r: r["error"]["errno"] if "error" in r else None),
    ("mode", lambda r: r.get("mode")),
    ("uid", lambda r: r.get("uid")),
    ("gid", lambda r: r.get("gid")),
    ("size", lambda r: r.get("size")),
    ("ino", lambda r: r.get("ino")),
    ("nlink", lambda r: r.get("nlink")),
    ("mtime_ns", lambda r: _ns(r.get("mtime"))),
    ("ctime_ns", lambda r: _ns(r.get("ctime"))),
    ("btime_ns", lambda r: _ns(r.get("btime"))),
    ("gen", lambda r: r.get("gen")),
)


def _ns(t: _t.Optional[dict]) -> _t.Optional[int]:
    return None if t is None else int(t["sec"]) * 1_000_000_000 + t["nsec"]


def _flat(r: dict) -> dict:
    return {name: get(r) for name, get in _COLUMNS}


def to_dataframe(bag: _t.Any) -> _t.Any:
    """The records of scan() as a dask.dataframe with flat columns (path,
    errno, mode, uid, gid, size, ino, nlink, mtime_ns, ctime_ns, btime_ns,
    gen; None where the record has no value): for queries such as the
    largest files, the oldest birth times or the counts per owner."""
    import pandas as pd

    meta = pd.DataFrame({"path": pd.Series(dtype=object),
                         "errno": pd.Series(dtype="Int64"),
                         **{n: pd.Series(dtype="Int64")
                            for n, _ in _COLUMNS[2:]}})
    return bag.map(_flat).to_dataframe(meta=meta)


# ---- the command: python3 -m libxstat.distributed ----

def _parser() -> _t.Any:
    import argparse

    p = argparse.ArgumentParser(
        prog="python3 -m libxstat.distributed",
        description="Scan trees on a Dask cluster; write the records of "
                    "xstat -r --json as JSON-lines part files.")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="the Dask scheduler, e.g. tcp://host:8786")
    where.add_argument("--local", metavar="N", type=int,
                       help="start N worker processes on this machine")
    p.add_argument("--out", metavar="DIR",
                   help="write DIR/part-*.jsonl (else: records on "
                        "standard output)")
    p.add_argument("--replace", action="store_true",
                   help="with --out: replace the part files of an earlier "
                        "scan in DIR, once the new scan is complete")
    p.add_argument("--max-depth", metavar="N", type=int,
                   help="descend at most N levels below each PATH")
    p.add_argument("--batch", metavar="ENTRIES", type=int,
                   help="entries a task is to hold (default: measured)")
    p.add_argument("--threads-per-worker", metavar="N", type=int, default=1,
                   help="with --local: threads in each worker (default 1)")
    p.add_argument("-e", "--extended", action="store_true",
                   help="also the generation and data version (xstat -e)")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress line")
    p.add_argument("paths", metavar="PATH", nargs="+")
    return p


def _progress_line(start: float) -> _t.Callable[[Summary], None]:
    import sys

    last = [0.0]

    def show(s: Summary) -> None:
        now = _time.monotonic()
        if now - last[0] < 0.5:
            return
        last[0] = now
        sys.stderr.write(f"\r{s.entries} entries, {s.errors} errors, "
                         f"{s.dirs} directories, {s.rate:.0f}/s, "
                         f"{len(s.workers)} workers ")
        sys.stderr.flush()
    return show


#: What the command says, alone, where Dask distributed cannot be imported.
NO_DASK = ("xstat-dask: Dask distributed is needed ({why}): install "
           "python3-distributed (Debian), or into a venv: pip install "
           "distributed")


def _import_dask() -> _t.Optional[str]:
    """None where Dask distributed imports, else why not (one line)."""
    try:
        import distributed  # noqa: F401
        import dask.bag  # noqa: F401
    except ImportError as e:
        return str(e).splitlines()[0] if str(e) else type(e).__name__
    return None


def _local_cluster(n: int, threads: int, space: str) -> _t.Any:
    """@n worker processes here, their space (spilled data, locks) in
    @space, the run's own directory, rather than a dask-worker-space
    shared by every run in the temporary directory."""
    import dask
    from distributed import LocalCluster

    with dask.config.set({"temporary-directory": space}):
        return LocalCluster(n_workers=n, threads_per_worker=threads,
                            processes=True, dashboard_address=":0",
                            local_directory=space)


def main(argv: _t.Optional[_t.Sequence[str]] = None) -> int:
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    # --help needs no Dask; anything else says at once what is missing
    if "-h" not in args and "--help" not in args:
        why = _import_dask()
        if why is not None:
            print(NO_DASK.format(why=why), file=sys.stderr)
            return 2
    a = _parser().parse_args(args)
    if a.replace and a.out is None:
        _parser().error("--replace needs --out")
    if a.out is not None:
        try:
            _refuse_out(a.out, a.replace)     # before a cluster is started
        except OutHoldsAnotherScan as e:
            return _say_out_refused(e)
        except OSError as e:
            print(f"xstat-dask: {a.out}: {e.strerror}", file=sys.stderr)
            return 2
    space = None
    try:
        if a.local is not None:
            space = _tempfile.mkdtemp(prefix="xstat-dask-space.")
        return _command(a, space)
    finally:
        if space is not None:
            _shutil.rmtree(space, ignore_errors=True)


def _unread_message(path: bytes, err: int) -> str:
    """A directory entered but not read, said as xstat -r says it."""
    name = _os.fsdecode(path)
    if err == 0:
        return f"{name} changed during the walk, not entered"
    if err == _errno.ELOOP:
        return f"file system loop at {name}"
    return f"cannot read directory {name}: {_os.strerror(err)}"


def _say_out_refused(e: OutHoldsAnotherScan) -> int:
    import sys

    why = e.strerror if e.others else (
        "holds the part files of another scan: --replace writes the new "
        "scan beside them and puts it in their place once it is complete")
    print(f"xstat-dask: {e.filename}: {why}", file=sys.stderr)
    return 2


def _command(a: _t.Any, space: _t.Optional[str]) -> int:
    import sys
    from distributed import Client

    t0 = _time.perf_counter()
    if a.local is not None:
        cluster = _local_cluster(a.local, a.threads_per_worker, space)
        client = Client(cluster)
    else:
        cluster = None
        client = Client(a.scheduler)
    startup = _time.perf_counter() - t0
    progress = None
    if not a.quiet and sys.stderr.isatty():
        progress = _progress_line(t0)
    try:
        summary, futures = run(a.paths, client, max_depth=a.max_depth,
                               fields=Request.EXTENDED if a.extended
                               else DEFAULT_FIELDS,
                               out=a.out, batch=a.batch, progress=progress,
                               replace=a.replace)
        if a.out is None:
            for lines in client.gather(futures):
                for line in lines:
                    sys.stdout.write(line + "\n")
            sys.stdout.flush()
    except PathMissingOnWorker as e:
        print(f"xstat-dask: {e.strerror}", file=sys.stderr)
        return 2
    except OutHoldsAnotherScan as e:
        return _say_out_refused(e)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    if progress:
        sys.stderr.write("\n")
    for path, err in summary.unread:
        print(f"xstat-dask: {_unread_message(path, err)}", file=sys.stderr)
    print(f"xstat-dask: {summary}; cluster start-up {startup:.2f} s "
          f"(not counted)", file=sys.stderr)
    return 1 if summary.errors else 0


if __name__ == "__main__":
    import sys as _sys
    # The module proper, not this __main__ copy: what the workers
    # unpickle must be importable by name there.
    from libxstat.distributed import main as _main
    _sys.exit(_main())
