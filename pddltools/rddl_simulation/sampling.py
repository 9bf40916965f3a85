"""Draws from RDDL's distributions with a `numpy.random.Generator`.

Parameters follow pyRDDLGym's reading where RDDLSim and pyRDDLGym differ (`Exponential(scale)`,
`Weibull(shape, scale)`, `Gamma(shape, scale)`), and RDDLSim's where they agree (`Normal(mean,
variance)`, `Bernoulli(p)`, `Uniform(low, high)`). A parameter out of its domain raises
`SamplingError`, as both simulators refuse it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from pddltools.diagnostics import Error, error


class SamplingError(Error):
    """A distribution was given a parameter outside its domain (a probability of 1.5, a variance < 0)."""


def bad(name: str, why: str) -> SamplingError:
    return SamplingError([error("R320", f"{name}: {why}")])


def _bernoulli(rng: np.random.Generator, p: float) -> bool:
    if not 0.0 <= p <= 1.0:
        raise bad("Bernoulli", f"probability {p} is not in [0, 1]")
    return bool(rng.random() < p)


def _normal(rng: np.random.Generator, mean: float, variance: float) -> float:
    if variance < 0:
        raise bad("Normal", f"variance {variance} is negative")
    return float(rng.normal(mean, math.sqrt(variance))) if variance > 0 else float(mean)


def _uniform(rng: np.random.Generator, low: float, high: float) -> float:
    if low > high:
        raise bad("Uniform", f"lower bound {low} is above upper bound {high}")
    return float(rng.uniform(low, high))


def _positive(name: str, *values: float) -> None:
    if any(v <= 0 for v in values):
        raise bad(name, f"parameters {', '.join(map(str, values))} must be positive")


def _exponential(rng: np.random.Generator, scale: float) -> float:
    _positive("Exponential", scale)
    return float(rng.exponential(scale))


def _poisson(rng: np.random.Generator, rate: float) -> int:
    if rate < 0:
        raise bad("Poisson", f"rate {rate} is negative")
    return int(rng.poisson(rate))


def _geometric(rng: np.random.Generator, p: float) -> int:
    if not 0.0 < p <= 1.0:
        raise bad("Geometric", f"probability {p} is not in (0, 1]")
    return int(rng.geometric(p))


def _binomial(rng: np.random.Generator, n: float, p: float) -> int:
    if n < 0 or not 0.0 <= p <= 1.0:
        raise bad("Binomial", f"needs n >= 0 and p in [0, 1], not {n}, {p}")
    return int(rng.binomial(int(n), p))


def _negative_binomial(rng: np.random.Generator, n: float, p: float) -> int:
    if n <= 0 or not 0.0 < p <= 1.0:
        raise bad("NegativeBinomial", f"needs n > 0 and p in (0, 1], not {n}, {p}")
    return int(rng.negative_binomial(n, p))


def _gamma(rng: np.random.Generator, shape: float, scale: float) -> float:
    _positive("Gamma", shape, scale)
    return float(rng.gamma(shape, scale))


def _beta(rng: np.random.Generator, a: float, b: float) -> float:
    _positive("Beta", a, b)
    return float(rng.beta(a, b))


def _weibull(rng: np.random.Generator, shape: float, scale: float) -> float:
    _positive("Weibull", shape, scale)
    return float(scale * rng.weibull(shape))


def _laplace(rng: np.random.Generator, loc: float, scale: float) -> float:
    _positive("Laplace", scale)
    return float(rng.laplace(loc, scale))


def _gumbel(rng: np.random.Generator, loc: float, scale: float) -> float:
    _positive("Gumbel", scale)
    return float(rng.gumbel(loc, scale))


def _cauchy(rng: np.random.Generator, loc: float, scale: float) -> float:
    _positive("Cauchy", scale)
    return float(loc + scale * rng.standard_cauchy())


def _logistic(rng: np.random.Generator, loc: float, scale: float) -> float:
    _positive("Logistic", scale)
    return float(rng.logistic(loc, scale))


def _student(rng: np.random.Generator, df: float) -> float:
    _positive("Student", df)
    return float(rng.standard_t(df))


def _chi_square(rng: np.random.Generator, df: float) -> float:
    _positive("ChiSquare", df)
    return float(rng.chisquare(df))


def _kumaraswamy(rng: np.random.Generator, a: float, b: float) -> float:
    _positive("Kumaraswamy", a, b)
    # inverse of the CDF 1 - (1 - x^a)^b
    return float((1.0 - (1.0 - rng.random()) ** (1.0 / b)) ** (1.0 / a))


def _pareto(rng: np.random.Generator, shape: float, scale: float) -> float:
    _positive("Pareto", shape, scale)
    return float(scale * (1.0 + rng.pareto(shape)))


Sampler = Callable[..., object]

#: name → (number of parameters, sampler(rng, *parameters))
DISTRIBUTIONS: dict[str, tuple[int, Sampler]] = {
    "Bernoulli": (1, _bernoulli),
    "Normal": (2, _normal),
    "Uniform": (2, _uniform),
    "Exponential": (1, _exponential),
    "Poisson": (1, _poisson),
    "Geometric": (1, _geometric),
    "Binomial": (2, _binomial),
    "NegativeBinomial": (2, _negative_binomial),
    "Gamma": (2, _gamma),
    "Beta": (2, _beta),
    "Weibull": (2, _weibull),
    "Laplace": (2, _laplace),
    "Gumbel": (2, _gumbel),
    "Cauchy": (2, _cauchy),
    "Logistic": (2, _logistic),
    "Student": (1, _student),
    "ChiSquare": (1, _chi_square),
    "Kumaraswamy": (2, _kumaraswamy),
    "Pareto": (2, _pareto),
}


def multinomial(rng: np.random.Generator, n: Any, weights: Sequence[float]) -> list[int]:
    """RDDLSim's `Multinomial`: how many of `n` draws fall on each value, with probabilities `weights`."""
    if isinstance(n, bool) or not float(n).is_integer() or n < 0:
        raise bad("Multinomial", f"the number of draws {n} is not a whole number of at least 0")
    if any(w < 0 for w in weights) or abs(math.fsum(weights) - 1.0) > 1e-6:
        raise bad("Multinomial", f"the probabilities {list(weights)} do not sum to 1")
    total = math.fsum(weights)
    return [int(c) for c in rng.multinomial(int(n), [w / total for w in weights])]


def dirichlet(rng: np.random.Generator, alpha: float, size: int) -> list[float]:
    """RDDLSim's `Dirichlet(type, alpha)`: one probability per value of the type, each concentration alpha."""
    _positive("Dirichlet", alpha)
    return [float(x) for x in rng.dirichlet([alpha] * size)]


def categorical(rng: np.random.Generator, values: Sequence[str], weights: Sequence[float], name: str,
                normalise: bool) -> str:
    """One of `values`, drawn with `weights` (which must sum to 1 unless `normalise`)."""
    if any(w < 0 for w in weights):
        raise bad(name, f"negative probability among {list(weights)}")
    total = math.fsum(weights)
    if normalise:
        if total <= 0:
            raise bad(name, "the weights sum to 0")
    elif abs(total - 1.0) > 1e-6:
        raise bad(name, f"probabilities sum to {total}, not 1")
    point = rng.random() * total
    running = 0.0
    for value, weight in zip(values, weights, strict=False):
        running += weight
        if point < running:
            return value
    return values[-1]  # rounding left `point` at the very top
