(define (problem p) (:domain uninitialised-function)
  (:init)
  (:goal (done)))
