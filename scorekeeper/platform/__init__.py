"""The web plumbing under every feature: settings, the database, the JSON API's conventions, error
pages, security headers, limits per client address, assets and the tablet's address. It names
no feature's address or header; each feature gives its own (tests/web/test_architecture.py)."""
