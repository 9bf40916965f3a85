; expect: E103 2:2 expected 'define' after '(', found 'domain'
(domain no-define
  (:requirements :strips)
  (:predicates (p)))
