"""The per-example F histogram of a scored corpus (matplotlib, no display needed)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")  # no display on a server; must precede pyplot
import numpy as np  # noqa: E402
from matplotlib import pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from ..results import ExampleScores  # noqa: E402
from .render import display_name  # noqa: E402

HISTOGRAM_BINS = 20
ROUND_DECIMALS = 9


def histogram_figure(examples: ExampleScores) -> Figure:
    """One small histogram of the per-example F per type, on a shared 0..1 axis."""
    names = list(examples.scores)
    figure, axes = plt.subplots(
        len(names), 1, sharex=True, figsize=(7, 0.5 + 1.1 * len(names)), dpi=110, squeeze=False
    )
    bins = np.arange(HISTOGRAM_BINS + 1) / HISTOGRAM_BINS  # exact edges: 16 / 20 is 0.8
    colours = plt.get_cmap("tab10").colors
    for row, name in enumerate(names):
        ax = axes[row, 0]
        # Rounded, so that 0.8 and 0.8000000000000002 (the same F reached by other sums) share
        # a bar.
        values = np.round(examples.scores[name][:, 2], ROUND_DECIMALS)
        ax.hist(values, bins=bins, color=colours[row % len(colours)], alpha=0.8, edgecolor="white")
        ax.axvline(values.mean(), color="#111827", linewidth=1, linestyle="--")
        ax.set_ylabel(display_name(name), rotation=0, ha="right", va="center", fontsize="small")
        ax.yaxis.set_major_locator(MaxNLocator(nbins=2, integer=True))
        ax.tick_params(labelsize="x-small")
        ax.spines[["top", "right"]].set_visible(False)
    axes[-1, 0].set_xlim(0, 1)
    axes[-1, 0].set_xlabel("F per example (dashed line: mean)", fontsize="small")
    figure.tight_layout()
    plt.close(figure)
    return figure
