"""Fake upstream servers that speak the real wire formats, for tests, benchmarks and e2e."""
