"""The type checker on small texts: what it accepts as RDDL does, and one finding per mistake.

Each kind of error has its own file in corpus/rddl/errors (see test_own_corpus.py); these tests
cover the rules that need a contrast: what is allowed next to what is not."""

from __future__ import annotations

from pddltools.diagnostics import Source
from pddltools.rddl.parser import parse
from pddltools.rddl.typecheck import check

DOMAIN = """
domain d {
    types { vehicle : object; truck : vehicle; colour : {@red, @blue}; };
    pvariables {
        FAST(vehicle) : { non-fluent, bool, default = false };
        n : { state-fluent, int, default = 0 };
        x : { state-fluent, real, default = 0.0 };
        c(truck) : { state-fluent, colour, default = @red };
        go(truck) : { action-fluent, bool, default = false };
    };
    cpfs {
        n' = %s;
        x' = %s;
        c'(?t) = %s;
    };
    reward = %s;
}
"""


def findings(n: str = "n", x: str = "x", c: str = "c(?t)", reward: str = "0", *extra: str) -> list[str]:
    files = [parse(Source(DOMAIN % (n, x, c, reward), "d.rddl"))]
    files += [parse(Source(text, f"extra{i}.rddl")) for i, text in enumerate(extra)]
    return [f"{d.code} {d.message}" for d in check(files)]


def test_a_well_typed_domain_has_no_findings() -> None:
    assert findings() == []


def test_booleans_count_as_numbers_but_numbers_are_not_booleans() -> None:
    assert findings(n="n + go($t1)", x="x + (n > 2) * 1.5") == []
    assert findings(n="sum_{?t : truck} go(?t)") == []
    assert findings(x="if (n) then 1 else 0") == ["R206 an if condition must be a boolean, not an int"]
    assert findings(n="x") == ["R206 the CPF of n gives a real, but n is an int"]


def test_subtypes_stand_for_their_supertypes_and_not_the_other_way() -> None:
    assert findings(c="if (FAST(?t)) then @blue else c(?t)") == []
    assert findings(reward="sum_{?v : vehicle} c(?v) == @red") == [
        "R204 argument 1 of c must be a truck, not a vehicle"]


def test_enum_values_and_switches_are_checked_against_their_enum() -> None:
    assert findings(c="switch (c(?t)) { case @red : @blue, default : @red }") == []
    assert findings(c="switch (c(?t)) { case @green : @blue, default : @red }") == [
        "R205 unknown enum value @green: no enum type of domain d has it"]
    assert findings(x="if (c($t1) == 2) then 1 else 0") == ["R206 == compares a colour with an int"]


def test_distributions_and_functions_have_fixed_arities_and_result_types() -> None:
    assert findings(n="Poisson(2) + floor[Normal(0, 1)]", x="Normal(x, 1)", c="c(?t)") == []
    assert findings(x="Normal(x)") == ["R203 Normal takes 2 parameters, not 1"]
    assert findings(x="pow[x]") == ["R203 pow[...] takes 2 arguments, not 1"]
    assert findings(c="Bernoulli(0.5)") == ["R206 the CPF of c gives a boolean, but c is a colour"]


def test_objects_of_the_instance_are_known_to_the_domain() -> None:
    instance = "instance i { domain = d; objects { truck : {t1}; vehicle : {car}; }; horizon = 2; }"
    assert findings("n", "x", "c(?t)", "FAST($car) + FAST($t1)", instance) == []
    assert findings("n", "x", "c(?t)", "FAST($bike)", instance) == ["R216 unknown object bike"]


def test_references_resolve_in_the_same_file_first() -> None:
    other_domain = DOMAIN.replace("domain d", "domain e") % ("n", "x", "c(?t)", "0")
    same_name_nf = "non-fluents nf { domain = d; objects { truck : {t9}; }; }"
    instance = ("non-fluents nf { domain = d; objects { truck : {t1}; }; }\n"
                "instance i { domain = d; non-fluents = nf; init-state { c(t1) = @blue; }; horizon = 2; }")
    assert findings("n", "x", "c(?t)", "0", other_domain, same_name_nf, instance) == []
