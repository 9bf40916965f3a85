; expect: E103 4:14 expected a ground fact in :init, found the variable '?x': the initial state has no variables
(define (problem p)
  (:domain d)
  (:init (at ?x))
  (:goal (and)))
