; :agent without :multi-agent: one W120
(define (domain solo)
  (:types robot)
  (:predicates (done ?r - robot))
  (:action finish :agent ?r - robot :effect (done ?r)))
