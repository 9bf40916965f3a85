; Existential and universal preconditions and a universal effect.
(define (domain quantifiers)
  (:requirements :strips :typing :existential-preconditions :universal-preconditions :conditional-effects)
  (:types box room)
  (:predicates (in ?b - box ?r - room) (lit ?r - room) (sealed ?b - box) (here ?r - room))
  (:action light
    :parameters (?r - room)
    :precondition (exists (?b - box) (in ?b ?r))
    :effect (lit ?r))
  (:action seal-all
    :parameters (?r - room)
    :precondition (and (here ?r) (forall (?s - room) (lit ?s)))
    :effect (forall (?b - box) (sealed ?b)))
  (:action go
    :parameters (?r ?s - room)
    :precondition (here ?r)
    :effect (and (not (here ?r)) (here ?s))))
