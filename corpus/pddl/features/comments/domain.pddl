; A comment before everything.
;; Double-semicolon comments, and ;;; triple ones.
(define ; after define
  (domain ; after domain
    commented) ; after the name
  ; between sections
  (:requirements ; inside requirements
    :strips ; after a flag
    :typing)
  (:types ; inside types
    item ; a type
    - object)
  (:predicates
    (held ; inside a declaration
      ?i ; a variable
      - ; the dash
      item)) ; after the section
  (:action pick ; the name
    ; before a keyword
    :parameters ; after a keyword
      (?i - item)
    :precondition (and ; inside and
      (not (held ?i)) ; a literal
      )
    :effect
      (held ?i) ; the effect
    ) ; the action ends
  ) ; the domain ends
; a comment at the very end, without a newline