"""The score book's pages: games, rounds, the actions on a game, and the players."""
