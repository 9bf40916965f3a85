; expect: E102 6:1 expected '(' or ')', found the end of the file
; expect: E107 3:1 unbalanced parentheses: this '(' is never closed
(define (domain d)
  (:predicates (p))
  (:action a :parameters () :effect (p))
