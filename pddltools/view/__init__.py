"""`pddltools view`: one validated plan as a self-contained HTML page (`page.render_page`), drawn from
the trace the validator records while it judges the plan (`pddltools.validate.trace`)."""

from __future__ import annotations
