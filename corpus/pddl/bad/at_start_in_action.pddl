; expect: E104 6:19 (at start ...) belongs in a durative action: a plain :action has no start or end
(define (domain d)
  (:predicates (p) (q))
  (:action a
    :parameters ()
    :precondition (at start (p))
    :effect (q)))
