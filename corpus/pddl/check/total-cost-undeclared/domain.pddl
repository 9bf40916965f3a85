; expect: W502 7
(define (domain total-cost-undeclared)
  (:requirements :strips)
  (:predicates (done))
  (:functions (total-cost))
  (:action finish :parameters () :precondition (and)
    :effect (and (done) (increase (total-cost) 3))))
