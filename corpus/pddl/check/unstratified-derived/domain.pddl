; expect: E304 7
(define (domain unstratified-derived)
  (:requirements :strips :derived-predicates :negative-preconditions :existential-preconditions)
  (:predicates (on ?x ?y) (clear ?x) (covered ?x))
  ; clear and covered are defined through each other's negation: no stratum can come first
  (:derived (covered ?x) (exists (?y) (and (on ?y ?x) (not (clear ?x)))))
  (:derived (clear ?x) (not (covered ?x)))
  (:action unstack :parameters (?x ?y) :precondition (and (on ?x ?y) (clear ?x)) :effect (not (on ?x ?y))))
