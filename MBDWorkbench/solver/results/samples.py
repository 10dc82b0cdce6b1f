"""The samples of a run in memory (:class:`SampleStore`): one array per quantity with a row per
sample, grown in place, read through views; filled a sample at a time (``append``) or K samples
at once (``extend``, what Results.record_many stores)."""

from __future__ import annotations

import numpy as np


class SampleStore:
    """The samples of a run, one array per quantity with a row per sample, grown in place
    (doubling, or :meth:`reserve` ahead): the accessors of Results read views of it, not
    copies. ``store[k]`` is sample k as {quantity: read-only view}."""

    def __init__(self) -> None:
        self._data: dict[str, np.ndarray] = {}
        self._n = 0
        self._capacity = 0
        self._frozen = False  # a window: read only

    def __len__(self) -> int:
        return self._n

    def reserve(self, n: int) -> None:
        """Make room for ``n`` samples in all (no copy when that many are recorded)."""
        if n > self._capacity:
            self._data = {k: _resized(v, n) for k, v in self._data.items()}
            self._capacity = n

    def _room(self, row_shapes: dict, count: int) -> None:
        """Columns of these row shapes on the first sample; room for ``count`` more samples."""
        if self._frozen:
            raise ValueError("a window of results is read only")
        if not self._data:
            self._capacity = max(self._capacity, 16, count)
            self._data = {key: np.zeros((self._capacity, *shape)) for key, shape in row_shapes.items()}
        if self._n + count > self._capacity:
            self.reserve(max(2 * self._capacity, self._n + count))

    def append(self, row: dict) -> None:
        """Store one sample: {quantity: number or array of a fixed shape}."""
        if not self._data or self._n == self._capacity or self._frozen:
            self._room({key: np.shape(value) for key, value in row.items()}, 1)
        data, n = self._data, self._n
        for key, value in row.items():
            data[key][n] = value
        self._n = n + 1

    def extend(self, rows: dict, count: int) -> None:
        """Store ``count`` samples at once: {quantity: array (count, ...) of its rows}; the same
        as ``count`` calls of :meth:`append` with row k of each."""
        if count <= 0:
            return
        if not self._data or self._n + count > self._capacity or self._frozen:
            self._room({key: np.shape(value)[1:] for key, value in rows.items()}, count)
        for key, value in rows.items():
            self._data[key][self._n : self._n + count] = value
        self._n += count

    def keys(self) -> list[str]:
        """The names of the stored quantities."""
        return list(self._data)

    def column(self, key: str) -> np.ndarray:
        """Every sample of one quantity, (K, ...), a read-only view."""
        view = self._data[key][: self._n] if key in self._data else np.zeros((0,))
        view.flags.writeable = False
        return view

    def __getitem__(self, k: int) -> Sample:
        if not -self._n <= k < self._n:
            raise IndexError("sample index out of range")
        return Sample(self, k % self._n)

    def value(self, key: str, k: int):
        """Sample k's value of one quantity (a read-only view for arrays)."""
        value = self._data[key][k]
        if isinstance(value, np.ndarray):
            value.flags.writeable = False
        return value

    def window(self, start: int, stop: int) -> SampleStore:
        """Samples [start, stop) as a read-only store sharing this one's arrays."""
        start, stop = max(0, start), min(self._n, stop)
        w = SampleStore()
        w._data = {k: v[start:stop] for k, v in self._data.items()}
        w._n = w._capacity = max(0, stop - start)
        w._frozen = True
        return w


class Sample:
    """One sample of a SampleStore: ``sample[quantity]`` reads it (a read-only view for arrays)."""

    def __init__(self, store: SampleStore, k: int) -> None:
        self.store, self.k = store, k

    def __getitem__(self, key: str):
        return self.store.value(key, self.k)


def _resized(a: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros((n, *a.shape[1:]))
    out[: len(a)] = a[:n]
    return out
