"""The warm-up of Dask workers as a worker plugin: every worker, the first ones and those that
join while the study runs, warms Numba's kernels (:func:`.variant.warm_worker`) and computes its
:func:`.variant.code_digest` before it takes a variant. Imported only by the Dask engine (it
imports distributed)."""

from __future__ import annotations

import asyncio

from distributed import WorkerPlugin

from .variant import warm_worker

RECORD = "mbd_study_warm_up"  # attribute of the Worker holding {plugin name: (seconds, digest)}


class WarmUp(WorkerPlugin):
    """Warms a worker with one short run of ``model`` (a model dict) when the plugin is added
    to it: on registration for the workers present, on arrival for the later ones."""

    def __init__(self, model: dict, name: str) -> None:
        self.model, self.name = model, name

    async def setup(self, worker) -> None:
        """Run the warm-up in a thread (the worker's event loop keeps answering) and record its
        wall time [s] and the code digest on the worker."""
        seconds, digest = await asyncio.get_running_loop().run_in_executor(None, warm_worker, self.model)
        records = getattr(worker, RECORD, None)
        if records is None:
            records = {}
            setattr(worker, RECORD, records)
        records[self.name] = (seconds, digest)


def warm_record(name: str, dask_worker=None) -> tuple[float, str] | None:
    """(warm-up wall time [s], code digest) this worker recorded for the plugin ``name``; None
    when it was not warmed (run through ``client.run``, which passes ``dask_worker``)."""
    return getattr(dask_worker, RECORD, {}).get(name)
