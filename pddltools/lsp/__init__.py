"""The language server (`pddltools lsp`): pddltools' checks, navigation and formatting in editors.

`server` wires the Language Server Protocol (pygls); the modules below it know nothing of the
protocol's transport: `workspace` (documents, parses, the files a problem leans on), `recovery`
(parsing half-typed PDDL), `pddl_index` (declarations and uses), `diagnostics`, `navigation`,
`completion` and `outline` (symbols and formatting).
"""
