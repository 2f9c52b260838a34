"""The Space server's memory given back after a request (rouge_plus.space.memory), each call in
a process of its own: the allocator's settings hold for the whole process."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rouge_plus.space import memory

glibc = pytest.mark.skipif(memory.LIBC is None, reason="glibc's malloc_trim and mallopt")

# What a request at the limits does to the server's heap, in a script: a handler thread
# allocates; a 16 MiB block (a request's body) is freed, then 64 blocks of 1 MiB are allocated
# and freed. Prints how many heaps glibc has and the MiB the process still holds of the 1 MiB
# blocks, before any trim.
REQUEST = """
import ctypes, sys, tempfile, threading
from pathlib import Path
from rouge_plus.space import memory

def rss_mib():
    line = next(l for l in Path('/proc/self/status').read_text().splitlines()
                if l.startswith('VmRSS:'))
    return int(line.split()[1]) / 1024

def heaps():
    libc = memory.LIBC
    libc.fopen.restype = ctypes.c_void_p
    with tempfile.NamedTemporaryFile('r') as report:
        stream = libc.fopen(report.name.encode(), b'w')
        libc.malloc_info(0, ctypes.c_void_p(stream))
        libc.fclose(ctypes.c_void_p(stream))
        return report.read().count('<heap nr=')

if sys.argv[1] == 'configured':
    assert memory.configure_allocator()
handler = threading.Thread(target=lambda: [bytes(1000) for _ in range(1000)])
handler.start()
handler.join()
body = bytes(16 * 2**20)
del body
start = rss_mib()
blocks = [b"x" * 2**20 for _ in range(64)]
keeper = b"x" * 200_000  # cut from the heap after them, when they are
del blocks
print(heaps(), rss_mib() - start)
"""


def heaps_and_kept_mib(setting: str) -> tuple[int, float]:
    answer = subprocess.run(
        [sys.executable, "-c", REQUEST, setting], capture_output=True, text=True, check=True
    ).stdout.split()
    return int(answer[0]), float(answer[1])


@glibc
def test_threads_share_one_heap_and_large_blocks_go_back_when_freed() -> None:
    heaps, kept = heaps_and_kept_mib("default")
    assert heaps == 2 and kept > 48  # the need: a heap per thread; freed blocks kept
    assert heaps_and_kept_mib("configured") == (1, pytest.approx(0, abs=4))


@glibc
def test_freed_memory_inside_the_heap_goes_back() -> None:
    # 200 MB in blocks below the mmap threshold, freed under a block that keeps the heap's top
    # in use (so glibc cannot give it back by itself), then released.
    script = (
        "from pathlib import Path\n"
        "from rouge_plus.space.memory import release_freed_memory\n"
        "def rss():\n"
        "    line = next(l for l in Path('/proc/self/status').read_text().splitlines()\n"
        "                if l.startswith('VmRSS:'))\n"
        "    return int(line.split()[1]) / 1024\n"
        "blocks = [bytes(100_000) for _ in range(2_000)]\n"
        "keeper = bytes(100_000)\n"
        "del blocks\n"
        "before = rss()\n"
        "release_freed_memory()\n"
        "print(before - rss())\n"
    )
    freed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert float(freed) > 100


def test_off_glibc_the_allocator_is_left_as_it_is(monkeypatch) -> None:
    monkeypatch.setattr(memory, "LIBC", None)
    assert memory.configure_allocator() is False
    memory.release_freed_memory()  # the garbage collection alone


def test_the_objects_of_the_server_s_start_are_left_out_of_later_collections() -> None:
    """A full garbage collection after each request scanned every object of Gradio and the
    page (about a second on a busy machine, holding up every request); frozen, it scans only
    what came after."""
    pytest.importorskip("gradio", reason="the page needs gradio")
    script = (
        "import gc\n"
        "from rouge_plus.space import memory, page\n"
        "page.build_demo()\n"
        "before = len(gc.get_objects())\n"
        "memory.freeze_startup_objects()\n"
        "print(before, len(gc.get_objects()), gc.get_freeze_count())\n"
    )
    answer = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.split()
    before, scanned, frozen = map(int, answer[-3:])
    assert before > 100_000 and scanned < 1_000 and frozen > before - 1_000
