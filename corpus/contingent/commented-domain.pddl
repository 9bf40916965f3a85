; Contingent PDDL with the author's comments around its sensing parts (fmt keeps each at its line)
(define (domain find-ball-commented)
  (:requirements :typing)
  (:types pos)
  (:predicates (at ?p - pos) (ball-at ?p - pos) (adj ?a ?b - pos))
  ; the ball's position is a hidden variable
  (:variable (ball-pos) (forall (?p - pos) (ball-at ?p)))

  ; looking reveals whether the ball is here
  (:action look
    :parameters (?p - pos)
    :precondition (at ?p) ; only where the agent is
    :observe (ball-at ?p))

  ; moving reveals the neighbours
  (:action move
    :parameters (?a ?b - pos)
    :precondition (and (at ?a) (adj ?a ?b))
    :effect (and (at ?b) (not (at ?a))) ; one step
    :sensing-model (forall (?c - pos) (when (adj ?b ?c) (ball-at ?c)))) ; what is seen
)
