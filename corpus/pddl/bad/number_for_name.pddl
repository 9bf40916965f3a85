; expect: E103 4:12 expected the action's name after ':action', found '42'
(define (domain d)
  (:predicates (p))
  (:action 42
    :parameters ()
    :effect (p)))
