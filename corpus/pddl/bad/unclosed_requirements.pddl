; expect: E103 5:3 expected ')' or a requirement flag such as :strips after ':typing', found '('
; expect: E107 4:3 unbalanced parentheses: this '(' is never closed
(define (domain d)
  (:requirements :strips :typing
  (:types block)
  (:predicates (clear ?x - block)))
