"""The public Space under load on 127.0.0.1: the figures of docs/space.md's limits.

    python benchmarks/space_load.py                      # pure-Python and compiled kernels
    python benchmarks/space_load.py --kernels pure       # a Space without a C compiler

For each kind of kernels, starts ``app.py`` on a free port of 127.0.0.1, then runs three bursts,
one after the other: 20 requests at the Space's limits through every scoring event (8 through
the /score API, 4 single pairs, 4 corpora, 4 comparisons); 6 requests of 10,000 rows of empty
texts with 10 empty references, 8 types and a bootstrap of 10,000 resamples; and one corpus of
3,500 news-sized rows. During each, small /score requests are timed one after the other from
its start to its end. Prints, per burst: how long the slowest request took and how far past
the 30 s budget, the slowest small request, the slowest refusal of an over-limit request, and
the server's memory before, at its peak and after. Each request is bounded by the budget (the
burst gives up 2 minutes past it), and the server is stopped at the end: the run stops by
itself, in about 2 minutes per kind of kernels.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO)]

from support.app_server import app_process  # noqa: E402
from support.space_load import (  # noqa: E402
    at_the_limits,
    burst,
    empty_request,
    news_corpus,
    rss_mib,
    warm_up,
)

from rouge_plus.space import limits  # noqa: E402

KERNELS = {"pure": {"ROUGE_PLUS_PURE_PYTHON": "1"}, "compiled": {}}


def bursts() -> dict[str, list[tuple[str, tuple, dict]]]:
    bootstrap = {"aggregation": "bootstrap", "n_resamples": limits.MAX_RESAMPLES}
    return {
        "20 requests at the limits": at_the_limits(),
        "6 requests of empty texts": [("api", empty_request(), bootstrap)] * 6,
        "a 3,500-row corpus": [("corpus", news_corpus(3_500), {})],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernels", nargs="+", choices=list(KERNELS), default=list(KERNELS))
    args = parser.parse_args()
    plan = bursts()
    for kernels in args.kernels:
        env = {
            name: value for name, value in os.environ.items() if name != "ROUGE_PLUS_PURE_PYTHON"
        }
        env.update(KERNELS[kernels])
        with app_process(env=env) as (url, process):
            warm_up(url)
            start = rss_mib(process.pid)
            print(f"## {kernels} kernels: server RSS after warming up {start:.0f} MiB", flush=True)
            for name, jobs in plan.items():
                result = burst(url, process.pid, jobs)
                print(f"- {result.summary(name)}; RSS after - start: "
                      f"{result.rss_after - start:+.0f} MiB", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
