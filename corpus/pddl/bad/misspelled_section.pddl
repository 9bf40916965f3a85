; expect: E103 4:4 expected one of ':action', ':constants', ':constraints', ':derived', ':durative-action', ... after '(', found ':actoin'
(define (domain d)
  (:predicates (p))
  (:actoin a
    :parameters ()
    :effect (p)))
