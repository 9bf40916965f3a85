; expect: E103 3:21 expected the end of the file, found ')'
(define (domain d)
  (:predicates (p))))
