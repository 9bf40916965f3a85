(define (problem logistics-bad)
  (:domain logistics)
  (:objects truck1 - truck
            plane1 - airplane
            pkg1 pkg2 - package
            airport1 airport2 - airport
            city1 city2 - city)
  (:init (at truck1 depot city1) (at plane1 airport1)
         (at pkg1 airport1) (at pkg2 depot) (at pkg3 depot)
         (in-city depot city1) (in-city airport1 city1) (in-city airport2 city2))
  (:goal (and (at pkg1 airport2) (at pkg2 airport1))))
