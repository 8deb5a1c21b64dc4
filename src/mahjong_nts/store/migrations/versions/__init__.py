"""One module per revision; the chain starts at 0001."""
