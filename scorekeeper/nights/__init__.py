"""A club night: many tables in one room, the seat draw (`draw`) first."""
