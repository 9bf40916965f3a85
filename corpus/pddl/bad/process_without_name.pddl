; expect: E103 4:13 expected the process's name after ':process', found '('
(define (domain d)
  (:predicates (p))
  (:process (p)
    :parameters ()
    :effect (and)))
