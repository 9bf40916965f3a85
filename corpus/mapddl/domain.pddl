; MA-PDDL as CoDMAP-2015 wrote it unfactored: agents, private predicates, an action of each agent
(define (domain warehouse)
  (:requirements :typing :multi-agent :unfactored-privacy)
  (:types robot box place)
  (:predicates
    (at ?b - box ?p - place)
    (:private ?r - robot
      (robot-at ?r - robot ?p - place)
      (holding ?r - robot ?b - box)))
  (:action move
    :agent ?r - robot
    :parameters (?from ?to - place)
    :precondition (robot-at ?r ?from)
    :effect (and (robot-at ?r ?to) (not (robot-at ?r ?from))))
  (:action drop
    :agent ?r - robot
    :parameters (?b - box ?p - place)
    :precondition (and (holding ?r ?b) (robot-at ?r ?p))
    :effect (and (at ?b ?p) (not (holding ?r ?b)))))
