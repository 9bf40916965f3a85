; a name error inside an outcome: PDDL's checker sees every outcome
(define (domain names)
  (:requirements :non-deterministic)
  (:predicates (p ?x) (q))
  (:action a :parameters (?x) :effect (oneof (p ?x) (r ?x))))
