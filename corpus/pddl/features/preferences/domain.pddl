; Preferences in a precondition: named and unnamed.
(define (domain errands)
  (:requirements :strips :preferences)
  (:predicates (home) (shop) (rested) (paid))
  (:action go-shopping
    :parameters ()
    :precondition (and (home) (preference well-rested (rested)) (preference (paid)))
    :effect (and (shop) (not (home)))))
