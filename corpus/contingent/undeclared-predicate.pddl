; observing a predicate the domain does not declare
(define (domain peek)
  (:predicates (p))
  (:action look :observe (q)))
