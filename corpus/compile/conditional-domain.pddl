; Conditional effects: one condition (split directly) and seven (sequenced).
(define (domain conditional)
  (:requirements :strips :conditional-effects :negative-preconditions)
  (:constants c1 c2 c3 c4 c5 c6 c7)
  (:predicates (on ?x) (flag) (touched ?x))
  (:action toggle
    :parameters (?x)
    :precondition (flag)
    :effect (and (when (on ?x) (not (on ?x))) (when (not (on ?x)) (on ?x)) (touched ?x)))
  (:action sweep
    :parameters ()
    :precondition ()
    :effect (and (flag)
                 (when (on c1) (not (on c1))) (when (on c2) (on c3)) (when (on c3) (not (on c2)))
                 (when (touched c4) (on c4)) (when (touched c5) (on c5)) (when (on c6) (touched c7))
                 (when (and (on c7) (flag)) (not (flag))))))
