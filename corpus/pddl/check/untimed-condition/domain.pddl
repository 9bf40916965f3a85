; expect: E103 9
; The grammar itself requires timed conditions: the parser reports this one (E451 is for trees built by passes).
(define (domain untimed-condition)
  (:requirements :strips :durative-actions)
  (:predicates (ready) (done))
  (:durative-action work
    :parameters ()
    :duration (= ?duration 5)
    :condition (and (at start (ready)) (ready))
    :effect (at end (done))))
