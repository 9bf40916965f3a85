; expect: E103 4:25 expected a type name after '-', found '?y'
(define (domain d)
  (:types block)
  (:predicates (on ?x - ?y - block)))
