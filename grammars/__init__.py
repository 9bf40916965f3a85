"""The Lark grammars, shipped with the package (see grammars/*.lark)."""
