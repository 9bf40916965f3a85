; expect: E203 7
(define (domain undeclared-function)
  (:requirements :strips :numeric-fluents)
  (:predicates (ready))
  (:functions (fuel))
  (:action go :parameters ()
    :precondition (and (ready) (> (fule) 1))
    :effect (decrease (fuel) 1)))
