"""Distributed ROUGE without evaluate's cache files and file locks.

Each rank scores its own shard with the core (``RougeScorer.score_examples``), the per-example
arrays are gathered, and rank 0 aggregates them once, so the result equals a single-process
``rouge_plus.score`` over all rows in rank order (bootstrap included, since it sees every row).

Under ``torchrun`` (``torch.distributed`` initialized) the gather is ``all_gather_object``;
run plainly, this script simulates ``--world-size`` ranks in one process with a list gather::

    python examples/distributed_reduce.py --world-size 4
    torchrun --nproc-per-node 2 examples/distributed_reduce.py
"""

from __future__ import annotations

import argparse
import importlib
from types import ModuleType
from typing import TypeVar

import rouge_plus
from rouge_plus.readers import read_demo
from rouge_plus.results import ExampleScores

Row = TypeVar("Row")


def shard(rows: list[Row], rank: int, world_size: int) -> list[Row]:
    """Contiguous shards, so rank order is row order."""
    size = -(-len(rows) // world_size)
    return rows[rank * size : (rank + 1) * size]


def score_shard(
    scorer: rouge_plus.RougeScorer, predictions: list[str], references: list[list[str]]
) -> ExampleScores:
    return scorer.score_examples(predictions, references)


def reduce_on_rank_zero(gathered: list[ExampleScores]) -> dict[str, float]:
    """Rank 0's corpus result from every rank's per-example scores, in rank order."""
    return ExampleScores.concatenate(gathered).aggregate()


def _torch_distributed() -> ModuleType | None:
    """``torch.distributed`` when this process is one rank of an initialized group, else None."""
    try:
        dist = importlib.import_module("torch.distributed")
    except ImportError:
        return None
    return dist if dist.is_available() and dist.is_initialized() else None


def run_torch(
    dist: ModuleType,
    scorer: rouge_plus.RougeScorer,
    predictions: list[str],
    references: list[list[str]],
) -> dict[str, float] | None:
    rank, world_size = dist.get_rank(), dist.get_world_size()
    mine = score_shard(
        scorer, shard(predictions, rank, world_size), shard(references, rank, world_size)
    )
    gathered: list[ExampleScores] = [mine] * world_size  # each rank's entry is overwritten
    dist.all_gather_object(gathered, mine)
    return reduce_on_rank_zero(gathered) if rank == 0 else None


def run_simulated(
    scorer: rouge_plus.RougeScorer,
    predictions: list[str],
    references: list[list[str]],
    world_size: int,
) -> dict[str, float]:
    gathered = [  # what each rank would send; a plain list stands in for the gather
        score_shard(
            scorer, shard(predictions, rank, world_size), shard(references, rank, world_size)
        )
        for rank in range(world_size)
    ]
    return reduce_on_rank_zero(gathered)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--world-size", type=int, default=4, help="simulated ranks (no torchrun)")
    args = parser.parse_args()
    predictions, references = read_demo()
    scorer = rouge_plus.RougeScorer(aggregation="bootstrap", n_resamples=500)
    dist = _torch_distributed()
    result: dict[str, float] | None
    if dist is None:
        result = run_simulated(scorer, predictions, references, args.world_size)
    else:
        dist.barrier()
        result = run_torch(dist, scorer, predictions, references)
    if result is not None:
        assert result == scorer.score(predictions, references), "differs from one process"
        for key, value in result.items():
            print(f"{key:16} {value:.4f}")


if __name__ == "__main__":
    main()
