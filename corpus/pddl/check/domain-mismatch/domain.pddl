(define (domain domain-mismatch)
  (:requirements :strips)
  (:predicates (done))
  (:action finish :parameters () :precondition (and) :effect (done)))
