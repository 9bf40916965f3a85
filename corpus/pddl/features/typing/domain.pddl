; Typing: a hierarchy three levels deep, several names per type, and either-types.
(define (domain depots)
  (:requirements :strips :typing)
  (:types truck van - vehicle
          vehicle crate - locatable
          depot market - place
          locatable place)
  (:constants hq - depot)
  (:predicates (at ?x - locatable ?p - place)
               (holds ?v - vehicle ?c - crate)
               (open ?p - (either depot market)))
  (:action drive
    :parameters (?v - vehicle ?from ?to - place)
    :precondition (at ?v ?from)
    :effect (and (at ?v ?to) (not (at ?v ?from))))
  (:action drop
    :parameters (?v - (either truck van) ?c - crate ?p - place)
    :precondition (and (at ?v ?p) (holds ?v ?c) (open ?p))
    :effect (and (at ?c ?p) (not (holds ?v ?c)))))
