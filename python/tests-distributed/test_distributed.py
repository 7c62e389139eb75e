# SPDX-License-Identifier: LGPL-2.1-or-later
"""libxstat.distributed on a real Dask cluster of worker processes on this
machine (a multi-node cluster emulated: every worker sees this machine's
filesystem).  The oracle is the C tool: ``xstat -r --json`` walks the same
tree with its own code and writes its own JSON; find(1) lists the paths.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

import pytest

distributed = pytest.importorskip("distributed")

from libxstat import distributed as xd  # noqa: E402


def _tool(root, *options):
    tool = os.environ.get("XSTAT_TOOL")
    if not tool or not os.access(tool, os.X_OK):
        pytest.skip("XSTAT_TOOL (tools/xstat) not set")
    cmd = [tool, "-r", "--json", *options, root]
    # the first walk moves the directories' atimes (relatime); the second
    # is the reference, and reads leave them alone from then on
    subprocess.run(cmd, stdout=subprocess.DEVNULL)
    out = subprocess.run(cmd, capture_output=True, check=False).stdout
    return sorted(out.decode("utf-8", "surrogateescape").splitlines())


def _find(root):
    out = subprocess.run(["find", root, "-print0"], capture_output=True,
                         check=True).stdout
    return sorted(out.split(b"\0")[:-1])


def _tree(base, dirs, files, odd=True):
    """@dirs directories of @files files, a chain, and odd names."""
    os.makedirs(base, exist_ok=True)
    for d in range(dirs):
        p = os.path.join(base, f"d{d:03}")
        os.mkdir(p)
        for f in range(files):
            with open(os.path.join(p, f"f{f:04}"), "wb") as fp:
                fp.write(b"x" * f)
    deep = os.path.join(base, "chain", *("c" * 12))
    os.makedirs(deep)
    open(os.path.join(deep, "leaf"), "w").close()
    os.mkdir(os.path.join(base, "empty"))
    if odd:
        b = os.fsencode(base)
        for name in (b"bad\xffname", b"new\nline", b'q"\\\x01\x7f',
                     "caf\u00e9 \u2028".encode(), b"\xe2\x80"):
            open(os.path.join(b, name), "w").close()
        os.symlink("d000", os.path.join(base, "link"))
        os.mkfifo(os.path.join(base, "fifo"))
    return base


def _lines(bag_or_dir):
    out = []
    for name in os.listdir(bag_or_dir):
        with open(os.path.join(bag_or_dir, name), encoding="utf-8",
                  errors="surrogateescape") as f:
            out.extend(f.read().splitlines())
    return sorted(out)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    # the workers' space in the run's own temporary directory, not in a
    # dask-worker-space left in /tmp
    cluster = distributed.LocalCluster(n_workers=3, threads_per_worker=1,
                                       processes=True,
                                       dashboard_address=":0",
                                       local_directory=str(
                                           tmp_path_factory.mktemp("space")))
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.fixture
def tree():
    base = tempfile.mkdtemp(prefix="xstat-dask.")
    os.chmod(base, 0o755)
    yield base
    subprocess.run(["chmod", "-R", "u+rwx", base])
    shutil.rmtree(base)


def test_parts_are_the_tools_lines(client, tree):
    """out=: every line exactly as xstat -r --json writes it, once."""
    root = _tree(os.path.join(tree, "t"), 20, 30)
    want = _tool(root)
    out = os.path.join(tree, "out")
    bag = xd.scan(root, client, out=out)
    got = _lines(out)
    assert got == want
    assert len(set(got)) == len(got)
    assert sorted(os.fsencode(r["path"]) if r["path_bytes"] is None
                  else bytes.fromhex(r["path_bytes"])
                  for r in bag.compute()) == _find(root)
    assert not [n for n in os.listdir(out) if not n.startswith("part-")]


def test_every_field(client, tree):
    """fields=Request.ALL: the extra results' members as xstat --all
    writes them (mount ID, attributes, change token...)."""
    from libxstat import Request
    root = _tree(os.path.join(tree, "t"), 3, 5)
    want = _tool(root, "--all")
    out = os.path.join(tree, "out")
    xd.run(root, client, fields=Request.ALL, out=out)
    got = _lines(out)
    # "taken" is each walk's own start time: equal in form, not in value
    taken = re.compile(r'"taken":\{"sec":\d+,"nsec":\d+\}')
    assert [taken.sub('"taken":T', line) for line in got] == \
        [taken.sub('"taken":T', line) for line in want]
    assert all(taken.search(line) for line in got)
    assert all('"change_token":{' in line for line in got)


def test_bag_and_batching(client, tree):
    """The bag without out=, with small directories batched: the same
    records; and the dataframe's sums."""
    root = _tree(os.path.join(tree, "t"), 40, 3, odd=False)
    want = [json.loads(line) for line in _tool(root)]
    summary, futures = xd.run(root, client, batch=100)
    assert summary.tasks < summary.dirs     # siblings did share tasks
    bag = xd.scan(root, client, batch=100)
    key = lambda r: (r["path"], r.get("path_bytes"))  # noqa: E731
    assert sorted(bag.compute(), key=key) == sorted(want, key=key)
    pytest.importorskip("pandas")
    df = xd.to_dataframe(bag)
    assert int(df["size"].sum().compute()) == sum(r["size"] for r in want)
    assert len(df) == len(want)


def test_max_depth(client, tree):
    root = _tree(os.path.join(tree, "t"), 3, 2, odd=False)
    want = [line for line in _tool(root)
            if json.loads(line)["path"].count("/") - root.count("/") <= 1]
    got = sorted(xd.scan(root, client, max_depth=1).map(json.dumps)
                 .compute())
    assert len(got) == len(want) == len(os.listdir(root)) + 1


def _kill_one(client, s, killed):
    """SIGKILL a worker that has run tasks (and holds their results)."""
    if killed or s.tasks < 4:
        return
    pids = client.run(os.getpid)
    for addr in sorted(s.workers):
        if addr in pids:
            os.kill(pids[addr], signal.SIGKILL)
            killed.append((addr, pids[addr], s.tasks))
            return


@pytest.mark.parametrize("to_files", [True, False], ids=["out", "bag"])
def test_worker_killed_mid_scan(client, tree, to_files):
    """A worker killed mid-scan: every entry still there, exactly once,
    and no part file left half written."""
    root = _tree(os.path.join(tree, "t"), 60, 40, odd=False)
    want = _tool(root)
    out = os.path.join(tree, "out") if to_files else None
    killed = []
    summary, futures = xd.run(
        root, client, out=out, batch=40,
        progress=lambda s: _kill_one(client, s, killed))
    assert killed, "no worker was killed"
    assert killed[0][2] < summary.tasks     # work was left to do
    if to_files:
        got = _lines(out)
        assert not [n for n in os.listdir(out) if n.endswith(".tmp")]
    else:
        got = sorted(line for lines in client.gather(futures)
                     for line in lines)
    assert got == want
    # the nanny starts a new worker; the other tests need only one
    client.wait_for_workers(1, timeout=60)


def test_vanishing_directory(client, tree):
    """A directory removed after its parent was read: its entry's record
    and no other (as xstat -r: one path, one record), counted as an
    error and listed as unread, and the scan goes on."""
    root = _tree(os.path.join(tree, "t"), 4, 5, odd=False)
    gone = os.path.join(root, "d001")

    def remove(s):
        if os.path.exists(gone):
            shutil.rmtree(gone)
    summary, futures = xd.run(root, client, progress=remove, batch=1)
    recs = [json.loads(line) for lines in client.gather(futures)
            for line in lines]
    assert [r for r in recs if "error" in r] == []
    assert summary.errors == 1
    assert summary.unread == [(os.fsencode(gone), 2)]
    assert sum(1 for r in recs if r["path"].startswith(gone + "/")) == 0
    # find lists what is left; the scan had d001 itself
    assert len(recs) == len(_find(root)) + 1
    assert len(set(r["path"] for r in recs)) == len(recs)


def test_path_missing_on_worker(client, tree):
    with pytest.raises(xd.PathMissingOnWorker) as e:
        xd.run(os.path.join(tree, "no-such"), client)
    assert "worker tcp://" in str(e.value)


def _drop_to_nobody():
    os.setgroups([])
    os.setgid(65534)
    os.setuid(65534)


def _nobody_worker(address, space):
    """A worker process as the user nobody (root bypasses permissions),
    its space in @space."""
    env = dict(os.environ, HOME="/nonexistent")
    return subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_worker", address,
         "--nthreads", "1", "--no-nanny", "--no-dashboard",
         "--local-directory", space],
        preexec_fn=_drop_to_nobody if os.getuid() == 0 else None, env=env,
        cwd="/", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def test_unreadable_directory(tree):
    """An unreadable directory (mode 000, the worker a real unprivileged
    user): the records xstat -r --json writes as that user - the
    directory's own and none for its failure - and the rest of the tree;
    the failure counted as an error and listed as unread."""
    root = _tree(os.path.join(tree, "t"), 3, 4, odd=False)
    for p in [tree, root] + [os.path.join(root, n) for n in os.listdir(root)]:
        os.chmod(p, 0o755)
    every = _find(root)
    locked = os.path.join(root, "d002")
    os.chmod(locked, 0)
    tool = os.environ.get("XSTAT_TOOL")
    if not tool or not os.access(tool, os.X_OK):
        pytest.skip("XSTAT_TOOL (tools/xstat) not set")
    drop = _drop_to_nobody if os.getuid() == 0 else None
    cmd = [tool, "-r", "--json", root]
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   preexec_fn=drop)     # directory atimes settled
    ref = subprocess.run(cmd, capture_output=True, preexec_fn=drop)
    assert ref.returncode == 1
    assert b"d002" in ref.stderr
    want = sorted(ref.stdout.decode("utf-8").splitlines())
    space = tempfile.mkdtemp(prefix="xstat-dask-space.")
    os.chmod(space, 0o777)
    cluster = distributed.LocalCluster(n_workers=0, processes=True,
                                       dashboard_address=":0",
                                       local_directory=space)
    worker = _nobody_worker(cluster.scheduler_address, space)
    try:
        with distributed.Client(cluster) as c:
            c.wait_for_workers(1, timeout=60)
            summary, futures = xd.run(root, c)
            lines = [line for lines in c.gather(futures) for line in lines]
    finally:
        worker.terminate()
        worker.wait()
        cluster.close()
        shutil.rmtree(space, ignore_errors=True)
    assert sorted(lines) == want
    recs = [json.loads(line) for line in lines]
    assert [r for r in recs if "error" in r] == []
    assert summary.errors == 1
    assert summary.unread == [(os.fsencode(locked), 13)]
    # every path but the 4 files of the locked directory
    assert len(recs) == len(every) - 4




def test_threads_read_below(tree):
    """Workers of several threads: a task reads the directories one level
    below its own on them; the records are still the tool's, once, in
    part files and in the bag."""
    root = _tree(os.path.join(tree, "t"), 12, 6)
    want = _tool(root)
    space = tempfile.mkdtemp(prefix="xstat-dask-space.")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=4,
                                       processes=True,
                                       dashboard_address=":0",
                                       local_directory=space)
    try:
        with distributed.Client(cluster) as c:
            out = os.path.join(tree, "out")
            summary, _ = xd.run(root, c, out=out)
            assert _lines(out) == want
            # the root's task read its subdirectories too
            assert summary.tasks < summary.dirs
            got = xd.scan(root, c).map(json.dumps).compute()
            assert len(got) == len(want)
    finally:
        cluster.close()
        shutil.rmtree(space, ignore_errors=True)
