"""Plot legends never cover the curves (commands/plot_dock.legend_beside, used by the plot dock
and the panels' preview plot): rendered with matplotlib's Agg backend at the figures' own sizes,
with curves that fill the whole axes, the legend's box lies outside the axes' box and inside the
figure. (The report's plots place theirs outside too: report/plots.py.)"""

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from MBDWorkbench.commands.plot_dock import legend_beside  # noqa: E402


def filled_axes(figure):
    """Axes with three curves spanning every corner (a legend inside would cover one)."""
    ax = figure.add_subplot(111)
    t = np.linspace(0.0, 2.0, 400)
    for k, name in enumerate(("x", "y", "z")):
        ax.plot(t, np.sin(2 * np.pi * (k + 1) * t), label=name)
    return ax


def boxes(figure, ax, legend):
    FigureCanvasAgg(figure).draw()
    return legend.get_window_extent(), ax.get_window_extent(), figure.bbox


@pytest.mark.parametrize("above", [False, True])
def test_legend_is_outside_the_axes_and_inside_the_figure(above, tmp_path):
    if above:  # the panels' preview plot (panels/base.PreviewPlot)
        figure = Figure(figsize=(3.2, 1.9), dpi=90)
        figure.subplots_adjust(left=0.2, bottom=0.24, right=0.97, top=0.86)
    else:  # the plot dock (plot_dock.PlotDock)
        figure = Figure(figsize=(5.5, 3.8), dpi=100, tight_layout=True)
    ax = filled_axes(figure)
    legend = legend_beside(ax, fontsize=7 if above else 8, above=above)
    lg, axes_box, fig_box = boxes(figure, ax, legend)
    figure.savefig(tmp_path / "legend.png")
    assert not lg.overlaps(axes_box), (lg, axes_box)
    assert fig_box.x0 <= lg.x0 and lg.x1 <= fig_box.x1 and fig_box.y0 <= lg.y0 and lg.y1 <= fig_box.y1, (lg, fig_box)
    assert [t.get_text() for t in legend.get_texts()] == ["x", "y", "z"]


def test_no_legend_without_labels():
    figure = Figure()
    ax = figure.add_subplot(111)
    ax.plot([0, 1], [0, 1])
    assert legend_beside(ax) is None
