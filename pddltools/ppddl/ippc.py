"""IPPC scores of the PPDDL competitions (IPPC-2004, 2006 and 2008, run on mdpsim) from `ppddl serve`'s
results log.

Each client ran 30 rounds per problem in a session with a time limit. For each client and problem the
competitions reported three numbers, and so does this:
- the success rate: rounds that reached the goal, of the rounds counted (mdpsim's `successes`);
- the mean reward: the problem's metric averaged over the rounds (mdpsim's `metric-average`: `(reward)`
  for problems with rewards, 1 for a reached goal and 0 otherwise for those without);
- the time: the session's time in milliseconds, and the mean time of the successful rounds.
A client's rounds on a problem are those of its last session on it (a session that ran out of time
counts its missing rounds as failures: the rounds counted are the session's planned rounds).

Ranking (what `ppddl score` prints, best first): by the successful rounds summed over every problem, ties
broken by the smaller total time, as the goal-oriented tables of IPPC-2006 and IPPC-2008 order planners;
`--by reward` ranks by the mean reward summed over the problems instead (for problems whose reward is
more than reaching the goal), ties broken by time likewise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pddltools.diagnostics import InputError, error
from pddltools.serving import read_results

ORDERS = ("successes", "reward")


class LogError(InputError):
    """A results log that cannot be read, or holds no finished session."""


@dataclass(frozen=True)
class ProblemScore:
    problem: str
    domain: str
    rounds: int  # planned
    played: int
    successes: int
    mean_reward: float
    time_ms: int
    success_time_ms: float | None  # mean time of the successful rounds

    @property
    def success_rate(self) -> float:
        return self.successes / self.rounds if self.rounds else 0.0

    def to_json(self) -> dict[str, object]:
        return {"problem": self.problem, "domain": self.domain, "rounds": self.rounds, "played": self.played,
                "successes": self.successes, "success_rate": self.success_rate, "mean_reward": self.mean_reward,
                "time_ms": self.time_ms, "success_time_ms": self.success_time_ms}


@dataclass
class ClientScore:
    client: str
    problems: list[ProblemScore] = field(default_factory=list)

    @property
    def successes(self) -> int:
        return sum(p.successes for p in self.problems)

    @property
    def reward(self) -> float:
        return sum(p.mean_reward for p in self.problems)

    @property
    def time_ms(self) -> int:
        return sum(p.time_ms for p in self.problems)

    def to_json(self) -> dict[str, object]:
        return {"client": self.client, "successes": self.successes, "reward": self.reward, "time_ms": self.time_ms,
                "problems": [p.to_json() for p in self.problems]}


def read_records(path: str) -> list[dict[str, Any]]:
    """The records of a results log; `LogError` (E951) for a line that is not JSON, or a log that cannot be
    read."""
    try:
        return read_results(path, "E951")
    except InputError as exc:
        raise LogError(exc.diagnostics) from None


def _number(record: dict[str, Any], key: str, default: float = 0.0) -> float:
    value = record.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return default
    return float(value)


def score(records: list[dict[str, Any]], order: str = "successes") -> list[ClientScore]:
    """Every client's scores, best first; `LogError` (E951) when no session finished."""
    sessions: dict[tuple[str, str], dict[str, Any]] = {}  # (client, problem): its last finished session
    rounds: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for record in records:
        client, session = str(record.get("client", "?")), record.get("session")
        if record.get("event") == "round-end" and isinstance(session, int):
            rounds.setdefault((client, session), []).append(record)
        elif record.get("event") == "session-end" and isinstance(session, int):
            sessions[(client, str(record.get("problem", "?")))] = record
    if not sessions:
        raise LogError([error("E951", "the results log holds no finished session")])
    clients: dict[str, ClientScore] = {}
    for (client, problem), end in sorted(sessions.items()):
        played = rounds.get((client, int(end["session"])), [])
        planned = max(int(_number(end, "rounds_planned", len(played))), len(played), 1)
        goals = [r for r in played if r.get("goal") is True]
        times = [_number(r, "time_spent_ms") for r in goals]
        clients.setdefault(client, ClientScore(client)).problems.append(ProblemScore(
            problem, str(end.get("domain", "?")), planned, len(played), len(goals),
            sum(_number(r, "reward") for r in played) / planned, int(_number(end, "time_used_ms")),
            sum(times) / len(times) if times else None))
    key = (lambda c: (-c.successes, c.time_ms)) if order == "successes" else (lambda c: (-c.reward, c.time_ms))
    return sorted(clients.values(), key=key)
