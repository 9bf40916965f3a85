; a factored domain with a private constant and a private function (Kovacs's MA-PDDL allows both)
(define (domain charging)
  (:requirements :typing :numeric-fluents :factored-privacy)
  (:types robot place)
  (:constants
    hall - place
    (:private charger - place)) ; this robot's own charger
  (:predicates
    (at ?r - robot ?p - place)
    (:private (docked ?r - robot)))
  (:functions
    (distance ?a ?b - place) - number
    (:private
      (battery ?r - robot) - number)) ; only this robot knows its battery
  (:action charge
    :parameters (?r - robot)
    :precondition (and (at ?r charger) (docked ?r))
    :effect (increase (battery ?r) 10)))
