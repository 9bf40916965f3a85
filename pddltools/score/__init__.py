"""Competition tooling: run planners under limits, store results in SQLite, score with the IPC rules.

Modules, each with one job: `store` (the results database), `limits` (one process tree under wall, CPU
and memory limits), `runner` (jobs over a problem set, executors), `learning` (the IPC-2011 learning
track workflow), `validation` (plans checked by `pddltools.validate`), `rules` (the IPC formulas),
`selection` (the IPC-2014 instance selection), `report` (one offline HTML file with SVG plots).
Below `limits`: `supervisor` (the per-run process that holds every process of the run), `proctree`
(the run's processes read from /proc); beside `runner`'s Dask executor, `dask_watchdog`.
"""
