; expect: E103 8:5 expected '(' or ')', found ':effect'
; expect: E107 7:19 unbalanced parentheses: this '(' is never closed
(define (domain d)
  (:predicates (p) (q))
  (:action a
    :parameters ()
    :precondition (and (p)
    :effect (q)))
