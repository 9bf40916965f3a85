; a private group inside another one: a syntax error
(define (domain nested)
  (:requirements :factored-privacy)
  (:predicates (p) (:private (q) (:private (r)))))
