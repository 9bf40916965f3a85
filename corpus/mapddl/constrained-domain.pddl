; MA-PDDL with a concurrency constraint (Kovacs 2012): no other robot grabs the box a robot grabs at the
; same time. Read sequentially (centralised), the constraint always holds.
(define (domain depot-pair)
  (:requirements :typing :multi-agent :unfactored-privacy)
  (:types robot box place)
  (:predicates
    (at ?b - box ?p - place)  ; where a box is
    (:private ?r - robot
      (robot-at ?r - robot ?p - place)
      (holding ?r - robot ?b - box)))
  (:action grab
    :agent ?r - robot
    :parameters (?b - box ?p - place)
    :precondition (and (at ?b ?p) (robot-at ?r ?p)
                       (forall (?r2 - robot) (not (grab ?r2 ?b ?p))))
    :effect (and (holding ?r ?b) (not (at ?b ?p))))
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
