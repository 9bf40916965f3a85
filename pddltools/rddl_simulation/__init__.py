"""RDDL simulation: ground an instance, compile its expressions, sample and step it.

It reads the AST of `pddltools.rddl` (the syntax and the type checker), which never imports this
package, as `pddltools.semantics` stands beside `pddltools.pddl`:

- `grounding`: objects by type, every grounding of every pvariable, initial values (a `Model`);
- `tuples`: RDDL2's tuple values; `sampling`: draws from RDDL's distributions;
- `evaluate`: expressions compiled once into closures; `specialise`: those closures per grounding with
  the non-fluents folded in; `simulator`: the `Simulator` that steps an instance;
- `problems`: the instances found in files, each with its domain and non-fluents: what can be simulated.
"""
