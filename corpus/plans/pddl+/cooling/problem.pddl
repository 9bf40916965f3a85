(define (problem cooling1) (:domain cooling)
  (:init (hot) (= (temp) 100) (= (room) 20))
  (:goal (and (served)))
  (:metric minimize (temp)))
