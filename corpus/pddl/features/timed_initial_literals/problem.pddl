; Timed initial literals: facts that become true or false at given times.
(define (problem shopping-day)
  (:domain shopping)
  (:init (at 9 (open))
         (at 17.5 (not (open))))
  (:goal (bought)))
