"""Design studies: parameter sweeps, designs of experiments and Monte Carlo runs of one model
(docs/studies.md).

A study file (:mod:`.spec`) names a base model, parameters addressed by name paths into the
model dict (:mod:`.paths`), a design (:mod:`.designs`: full grid, Latin hypercube, Monte Carlo)
and KPIs (:mod:`.kpis`). Each variant is one ``simulate`` of a model dict (:mod:`.variant`),
run in this process or on Dask worker processes (:mod:`.engine`); the rows go to
``study.csv`` (:mod:`.table`) and the plots to PNG files (:mod:`.plots`). The package depends
on the solver only; the solver knows nothing of it. Dask is imported only when a study runs
on it."""
