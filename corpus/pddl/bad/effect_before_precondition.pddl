; expect: E103 7:5 expected ')' to end the action after its :effect, found ':precondition': :precondition must come before :effect
(define (domain d)
  (:predicates (p) (q))
  (:action a
    :parameters ()
    :effect (q)
    :precondition (p)))
