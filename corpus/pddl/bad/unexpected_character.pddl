; expect: E101 3:19 unexpected character '@': PDDL has names, ?variables, numbers, parentheses and the operators - + * / < <= = >= >
(define (domain d)
  (:predicates (p @x)))
