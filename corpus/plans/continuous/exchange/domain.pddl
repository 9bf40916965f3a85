; Two bodies exchanging heat (a coupled linear system, as in the heat-exchange and connected-tank
; domains of the PDDL+ literature): a' = (b - a) / 2, b' = (a - b) / 2, solved in closed form through the
; eigenvalues 0 and -1 of its matrix; an event when a reaches 40.
(define (domain exchange)
  (:requirements :fluents :time :negative-preconditions)
  (:predicates (touching) (warm))
  (:functions (a) (b))
  (:action join :parameters () :precondition (not (touching)) :effect (touching))
  (:action serve :parameters () :precondition (warm) :effect (not (touching)))
  (:process exchange :parameters () :precondition (touching)
    :effect (and (increase (a) (* #t (* 0.5 (- (b) (a))))) (increase (b) (* #t (* 0.5 (- (a) (b)))))))
  (:event warmed :parameters () :precondition (and (touching) (not (warm)) (>= (a) 40))
    :effect (warm)))
