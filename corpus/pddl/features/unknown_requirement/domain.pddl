; An unknown requirement flag: the file parses, with warning W101.
(define (domain future)
  (:requirements :strips :teleportation)
  (:predicates (here))
  (:action stay :parameters () :precondition (here) :effect (here)))
