"""The season: ratings, the season kept per process under its stamp."""
