; expect: E104 6:25 '/' takes exactly two arguments
(define (domain d)
  (:functions (f))
  (:action a
    :parameters ()
    :effect (assign (f) (/ 1 2 3))))
