"""The online-table tests: a live server per test module where it matters."""
