; expect: E100 1:1 the file is empty (or has only comments): expected (define (domain NAME) ...) or (define (problem NAME) ...)
; This file has nothing but comments.
; Not even a (define ...).
