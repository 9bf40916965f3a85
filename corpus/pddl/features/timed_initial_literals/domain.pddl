; A domain for timed initial literals: a shop that opens and closes.
(define (domain shopping)
  (:requirements :durative-actions :timed-initial-literals)
  (:predicates (open) (bought))
  (:durative-action buy
    :parameters ()
    :duration (= ?duration 2)
    :condition (over all (open))
    :effect (at end (bought))))
