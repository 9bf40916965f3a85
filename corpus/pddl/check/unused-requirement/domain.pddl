; expect: W503 3
(define (domain unused-requirement)
  (:requirements :strips :conditional-effects)
  (:predicates (done))
  (:action finish :parameters () :precondition (and) :effect (done)))
