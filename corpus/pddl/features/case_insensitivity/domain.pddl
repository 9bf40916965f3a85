; PDDL is case-insensitive: keywords, names and variables in any case.
(DEFINE (DOMAIN Mixed-Case)
  (:REQUIREMENTS :STRIPS :Typing)
  (:Types Block)
  (:Predicates (On ?X - BLOCK ?y - block) (ClEaR ?x - Block))
  (:Action Stack
    :Parameters (?X ?Y - Block)
    :PRECONDITION (AND (Clear ?x) (clear ?Y))
    :Effect (And (ON ?x ?Y) (NOT (Clear ?y)))))
