"""One process running code that already calls ROUGE, as it is written, with rouge_plus's
drop-ins installed (``accelerated``) or not (``plain``); prints JSON: the values, NumPy's global
random state after them, the modules ``rouge_score`` and ``rouge`` resolved to, and the seconds
the calls took (imports excluded).

    python benchmarks/harness_child.py accelerated truthfulqa < docs.json
    python benchmarks/harness_child.py plain evaluate-script path/to/rouge.py < pairs.json

Tasks: ``truthfulqa`` (lm-evaluation-harness's ``tasks/truthfulqa/utils.process_results_gen``
on ``[[doc, completion], ...]``: a ``BootstrapAggregator`` per reference), ``longbench``
(lm-evaluation-harness's ``tasks/longbench/metrics.get_rouge_score``, on pltrdy's ``rouge``, on
``[[doc, prediction], ...]``) and ``evaluate-script`` (evaluate's own "rouge" metric script,
loaded from a file, on ``{"predictions": [...], "references": [...]}``, aggregated or not, with
and without stemming). ``bench.py --mode harness`` and ``tests/frontends/test_reach.py`` run it.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's rouge_plus


def truthfulqa() -> Callable[[list], list]:
    from lm_eval.tasks.truthfulqa import utils

    return lambda payload: [utils.process_results_gen(doc, [c]) for doc, c in payload]


def longbench() -> Callable[[list], list]:
    from lm_eval.tasks.longbench import metrics

    return lambda payload: [metrics.get_rouge_score(doc, [p]) for doc, p in payload]


def evaluate_script(path: str) -> Callable[[dict], list]:
    import evaluate

    metric = evaluate.load(path)
    return lambda payload: [
        metric.compute(**payload, use_aggregator=aggregate, use_stemmer=stem)
        for aggregate in (True, False)
        for stem in (False, True)
    ]


def main() -> None:
    mode, task, *rest = sys.argv[1:]
    if mode == "accelerated":
        import rouge_plus.compat

        rouge_plus.compat.install()
    payload = json.load(sys.stdin)
    tasks = {"truthfulqa": truthfulqa, "longbench": longbench, "evaluate-script": evaluate_script}
    np.random.seed(0)  # evaluate's metric takes its seed from the global state when loaded
    run = tasks[task](*rest)  # imports outside the timing
    np.random.seed(0)
    start = time.perf_counter()
    results = run(payload)
    seconds = time.perf_counter() - start
    state = np.random.get_state()
    fields = [x.tobytes() if hasattr(x, "tobytes") else x for x in state]
    modules = {n: sys.modules[n].__name__ for n in ("rouge_score", "rouge") if n in sys.modules}
    output = {
        "results": results,
        "state": hashlib.sha256(repr(fields).encode()).hexdigest(),
        "modules": modules,
        "seconds": seconds,
    }
    print(json.dumps(output))


if __name__ == "__main__":
    main()
