"""How many worker processes a run uses (--jobs): auto, a number, or 0 for every usable core."""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path

from grounding.transcripts.remote import is_remote

# Inputs smaller than this are judged in one process under --jobs auto. Workers cost ~20-30 ms of start-up
# and hand-over here; one process judges a megabyte of the benchmark corpus in ~45 ms. Measured on two
# cores: 0.3 MB 0.14 -> 0.17 s wall with two workers, 3 MB 0.26 -> 0.22 s, 50 MB 2.24 -> 1.24 s.
AUTO_MIN_BYTES = 2 << 20
_CGROUP_V2 = Path("/sys/fs/cgroup/cpu.max")
_CGROUP_V1 = (Path("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"), Path("/sys/fs/cgroup/cpu/cpu.cfs_period_us"))


def worker_count(jobs: int | str, files: Sequence[str]) -> int:
    """The processes that judge files: auto gives one per usable core when the files are large enough
    (AUTO_MIN_BYTES, counted on disk; a file in object storage counts as large, standard input as none),
    else one; 0 gives one per usable core; a number is itself."""
    if jobs == "auto":
        return usable_cores() if _large(files) else 1
    if jobs == 0:
        return usable_cores()
    return int(jobs)


def usable_cores() -> int:
    """The cores this process may run on (its affinity) and the CPU time its cgroup's quota allows, the
    lesser: a container limited to two CPUs on a machine of 64 has two."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    quota = _cgroup_quota()
    return max(1, min(cores, quota) if quota is not None else cores)


def _cgroup_quota(v2: Path = _CGROUP_V2, v1: tuple[Path, Path] = _CGROUP_V1) -> int | None:
    """The CPUs a cgroup's quota allows (rounded up), or None when it sets none or cannot be read."""
    try:
        quota, period = v2.read_text().split()[:2]
    except (OSError, ValueError):
        try:
            quota, period = v1[0].read_text().strip(), v1[1].read_text().strip()
        except OSError:
            return None
    try:
        allowed, every = int(quota), int(period)
    except ValueError:  # "max": no quota
        return None
    return math.ceil(allowed / every) if allowed > 0 and every > 0 else None


def _large(files: Sequence[str]) -> bool:
    total = 0
    for path in files:
        if path == "-":
            continue  # standard input: its size is unknown until read
        if is_remote(path):
            return True
        try:
            total += os.path.getsize(path)
        except OSError:
            continue  # reported as the file's error when it is read
        if total >= AUTO_MIN_BYTES:
            return True
    return False
