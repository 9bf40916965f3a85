; expect: E103 4:3 expected the end of the file, found '('
(define (domain d)
  (:predicates (p)))
  (:action a :parameters () :effect (p)))
