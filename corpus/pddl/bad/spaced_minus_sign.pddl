; expect: E103 4:21 expected a name or a number, found '-': a negative number is written with its sign touching the digits, as -3
(define (problem p)
  (:domain d)
  (:init (= (depth) - 3))
  (:goal (and)))
