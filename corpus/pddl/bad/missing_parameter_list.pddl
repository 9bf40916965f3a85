; expect: E103 5:17 expected a parameter list such as (?x - type) after ':parameters', found '?x'
(define (domain d)
  (:predicates (p ?x))
  (:action a
    :parameters ?x
    :precondition (p ?x)
    :effect (not (p ?x))))
