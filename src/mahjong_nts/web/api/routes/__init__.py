"""The routes of the HTTP API, one module per endpoint."""
