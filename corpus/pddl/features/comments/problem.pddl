(define (problem commented-one) ; the problem
  (:domain commented) ; its domain
  (:objects a b ; two items
    - item)
  (:init ; nothing is held
    )
  (:goal ; hold both
    (and (held a) ; one
         (held b))) ; two
  ) ; end
