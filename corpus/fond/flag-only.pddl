; declares :non-deterministic but has no oneof (yet): still a FOND task, for no deterministic track
(define (domain light)
  (:requirements :strips :non-deterministic)
  (:predicates (on))
  (:action switch :effect (on)))
