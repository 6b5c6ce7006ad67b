"""Club play's pure core: VP tables, movements, standings, leagues and ratings.

Pure Python beside the rules engine: no web framework, no database. Services,
views and the API build these values from stored events and matches and turn
the problems (message keys and parameters) into words at the edge.
"""
