"""multibody package."""
