(define (domain d)
  (:requirements :strips)
  (:predicates (intact ?x) (done))
  (:action smash :parameters (?x) :precondition (intact ?x)
    :effect (and (done) (not (intact ?x)))))
; expect: I413 3
; expect: I410 5
