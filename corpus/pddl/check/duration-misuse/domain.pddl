; expect: E453 9
(define (domain duration-misuse)
  (:requirements :strips :durative-actions :numeric-fluents)
  (:predicates (ready) (done))
  (:functions (limit))
  (:durative-action work
    :parameters ()
    :duration (= ?duration 5)
    :condition (at start (< ?duration (limit)))
    :effect (at end (done))))
