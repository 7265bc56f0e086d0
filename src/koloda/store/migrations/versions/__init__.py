"""One module a schema revision, oldest first: ``0001`` the schema of koloda 0.1.0, then each change."""
