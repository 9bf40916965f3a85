(define (domain cooling)
  (:requirements :fluents :time :negative-preconditions)
  (:predicates (hot) (cooled) (served))
  (:functions (temp) (room))
  (:action serve
    :parameters ()
    :precondition (and (cooled) (not (served)))
    :effect (and (served)))
  (:process cool
    :parameters ()
    :precondition (and (hot))
    :effect (and (decrease (temp) (* #t (* 0.1 (- (temp) (room)))))))
  (:event cooled_down
    :parameters ()
    :precondition (and (hot) (<= (temp) 30))
    :effect (and (not (hot)) (cooled)))
)
