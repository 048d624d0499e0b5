"""The players the tests seat, in seat order (the first deals first unless a test says
otherwise)."""

NAMES = ["Ann", "Bob", "Cat", "Dan"]
EIGHT_NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
# Eight long names: the widest a table of the family profile lays out.
LONG_EIGHT_NAMES = [
    "Alexandra",
    "Bartholomew",
    "Catherine",
    "Dominic",
    "Eleanor",
    "Frederick",
    "Gwen",
    "Hal",
]
