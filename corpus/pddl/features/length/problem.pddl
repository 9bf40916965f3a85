; :length (PDDL 1.2): bounds on the plan's serial and parallel length.
(define (problem steps-one)
  (:domain steps)
  (:init)
  (:goal (done))
  (:length (:serial 10) (:parallel 4)))
