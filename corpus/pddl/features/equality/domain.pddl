; Equality between variables, and between a variable and a constant.
(define (domain rooms)
  (:requirements :strips :equality :negative-preconditions)
  (:constants hall)
  (:predicates (in ?r))
  (:action move
    :parameters (?from ?to)
    :precondition (and (in ?from) (not (= ?from ?to)) (not (= ?to hall)))
    :effect (and (in ?to) (not (in ?from))))
  (:action return
    :parameters (?from)
    :precondition (and (in ?from) (= ?from ?from))
    :effect (in hall)))
