; Every requirement flag of PDDL 1.2 to 3.1 in one :requirements section.
(define (domain everything)
  (:requirements :strips :typing :negative-preconditions :disjunctive-preconditions :equality
                 :existential-preconditions :universal-preconditions :quantified-preconditions
                 :conditional-effects :adl :derived-predicates :action-costs :numeric-fluents
                 :fluents :object-fluents :durative-actions :duration-inequalities
                 :continuous-effects :timed-initial-literals :preferences :constraints
                 :goal-utilities
                 :domain-axioms :safety-constraints :open-world :true-negation :ucpop
                 :expression-evaluation)
  (:predicates (p))
  (:action a :parameters () :precondition (p) :effect (not (p))))
