"""R5 The opening: judging one as laid, and finding one in a hand.

`laid` judges the melds a player lays. `solver` answers "can this hand go down?": the fast search
for rounds 1-6 (`search`, with the runs every search shares and each reason a hand cannot go
down) and the whole-hand deal (`whole_hand`), the general search (`general`) for what they do not
cover, and the opening found set out in the hand's own cards (`arrangement`).
"""
