; expect: E104 2:1 the problem does not say which domain it is for: (:domain name) is missing
(define (problem lost)
  (:objects a b)
  (:init (p a))
  (:goal (p b)))
