; PDDL3: a soft precondition (wash prefers a dirty room); goals and constraints are in the problems.
(define (domain rooms3)
  (:requirements :strips :typing :preferences :constraints)
  (:types room)
  (:predicates (at ?r - room) (road ?a ?b - room) (painted ?r - room) (clean ?r - room))
  (:action move
    :parameters (?a ?b - room)
    :precondition (and (at ?a) (road ?a ?b))
    :effect (and (not (at ?a)) (at ?b)))
  (:action paint
    :parameters (?r - room)
    :precondition (at ?r)
    :effect (and (painted ?r) (not (clean ?r))))
  (:action wash
    :parameters (?r - room)
    :precondition (and (at ?r) (preference p-dirty (not (clean ?r))))
    :effect (clean ?r)))
