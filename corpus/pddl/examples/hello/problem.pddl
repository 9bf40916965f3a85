(define (problem deliver-two)
  (:domain hello-logistics)
  (:objects truck1 - truck
            parcel letter - package
            depot market harbour - place)
  (:init (at truck1 depot) (at parcel depot) (at letter market)
         (road depot market) (road market depot) (road market harbour) (road harbour market)
         (= (distance depot market) 4) (= (distance market depot) 4)
         (= (distance market harbour) 7) (= (distance harbour market) 7)
         (= (total-cost) 0))
  (:goal (and (at parcel harbour) (at letter depot)))
  (:metric minimize (total-cost)))
