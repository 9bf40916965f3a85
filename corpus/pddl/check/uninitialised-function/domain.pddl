; expect: W601 7
(define (domain uninitialised-function)
  (:requirements :strips :numeric-fluents)
  (:predicates (done))
  (:functions (battery))
  (:action finish :parameters ()
    :precondition (> (battery) 0)
    :effect (done)))
