; expect: E103 6:17 expected a parameter list such as (?x - type) after ':parameters', found '?x'
; expect: E103 13:28 expected '(' or ')', found '42'
(define (domain d)
  (:predicates (p) (q))
  (:action first
    :parameters ?x
    :effect (q))
  (:action fine
    :parameters ()
    :effect (p))
  (:action second
    :parameters ()
    :precondition (and (p) 42)
    :effect (q)))
