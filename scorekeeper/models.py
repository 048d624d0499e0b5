"""Database models."""
