"""The web app: pages, the HTTP JSON API and their static files (see docs/vendor.md for the
vendored front-end files and tile pictures)."""
