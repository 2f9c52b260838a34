"""One process of a distributed ``evaluate`` run of the rouge_plus metric.

Usage: ``python distributed_worker.py JOB_JSON``, where the job file gives the metric directory,
``num_process``, ``process_id``, ``experiment_id``, ``cache_dir``, this process's shard
(``predictions``, ``references``) and the ``compute`` options. Prints ``compute()``'s result as
JSON (``null`` on the processes other than 0).

transformers is hidden from this process: the metric does not use it, and evaluate imports it
when it is installed, which would add seconds to the start of every process.
"""

import importlib.abc
import json
import sys
from pathlib import Path


class _HideTransformers(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.partition(".")[0] == "transformers":
            raise ModuleNotFoundError(f"No module named {name!r} (hidden from this worker)")
        return None


sys.meta_path.insert(0, _HideTransformers())

import evaluate  # noqa: E402


def main(job_file: str) -> None:
    job = json.loads(Path(job_file).read_text(encoding="utf-8"))
    metric = evaluate.load(
        job["metric_path"],
        num_process=job["num_process"],
        process_id=job["process_id"],
        experiment_id=job["experiment_id"],
        cache_dir=job["cache_dir"],
    )
    metric.add_batch(predictions=job["predictions"], references=job["references"])
    print(json.dumps(metric.compute(**job["options"])))


if __name__ == "__main__":
    main(sys.argv[1])
