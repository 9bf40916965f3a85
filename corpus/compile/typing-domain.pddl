; Typing with a subtype and an either parameter.
(define (domain typing)
  (:requirements :strips :typing)
  (:types vehicle place - object truck - vehicle city - place)
  (:constants depot - place)
  (:predicates (at ?v - vehicle ?p - place) (visited ?x - (either vehicle city)))
  (:action drive
    :parameters (?t - truck ?from ?to - place)
    :precondition (at ?t ?from)
    :effect (and (not (at ?t ?from)) (at ?t ?to)))
  (:action mark
    :parameters (?x - (either vehicle city) ?t - truck)
    :precondition (at ?t depot)
    :effect (visited ?x)))
