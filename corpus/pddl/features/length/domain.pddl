; A trivial domain for the :length problem section.
(define (domain steps)
  (:requirements :strips)
  (:predicates (done))
  (:action finish :parameters () :precondition () :effect (done)))
