"""A table's own rule set for the tests: what a family changes from liverpool (R11)."""

from scorekeeper.rules.ruleset import LIVERPOOL, RuleSet


def smith_document() -> dict:
    """Joker 50, ace 20, deuces wild, 3 buys a game, 11 cards every deal; the rest liverpool's."""
    document = LIVERPOOL.to_json()
    document.update(name="Smith family", wild_deuces=True)
    document["values"].update(JK=50, A=20)
    document["buying"]["per_game"] = 3
    for deal in document["deals"]:
        deal["cards"] = 11
    return document


SMITH = RuleSet.parse(smith_document())
