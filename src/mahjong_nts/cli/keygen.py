"""``mahjong-nts keygen PRIVATE PUBLIC`` (or ``--hmac SECRET``): a key to sign hand logs.

Writes a new Ed25519 key pair as PEM files, the same as::

    openssl genpkey -algorithm ed25519 -out PRIVATE
    openssl pkey -in PRIVATE -pubout -out PUBLIC

(the private key readable by its owner only), or with ``--hmac`` one shared
HMAC-SHA256 key.  It never overwrites a file.  ``play --sign PRIVATE`` and
``simulate --sign PRIVATE`` sign the logs they write; ``replay --verify --key
PUBLIC`` checks them (see ``docs/logs.md``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from mahjong_nts.cli.i18n import N_, _
from mahjong_nts.cli.options import fail, os_reason
from mahjong_nts.formats.logkeys import (
    new_ed25519_key,
    new_hmac_key,
    parse_key,
    write_new_file,
)
from mahjong_nts.formats.safejson import printable

__all__ = ["HELP", "keygen_cmd"]

HELP = N_("Make a key to sign hand logs: an Ed25519 pair (default) or an HMAC key.")


def keygen_cmd(
    private: Annotated[
        Path,
        typer.Argument(
            help=N_("The new private key (or, with --hmac, the shared key)."),
            metavar=N_("private"),
        ),
    ],
    public: Annotated[
        Path | None,
        typer.Argument(
            help=N_("The new public key (for Ed25519; not with --hmac)."),
            metavar=N_("public"),
            show_default=False,
        ),
    ] = None,
    hmac: Annotated[
        bool,
        typer.Option(
            "--hmac",
            help=N_(
                "Make one shared HMAC-SHA256 key instead (whoever can check a log with it "
                "can also sign one)."
            ),
        ),
    ] = False,
) -> None:
    """Make a key to sign hand logs (:data:`HELP`)."""
    if hmac and public is not None:
        fail(_("--hmac makes one shared key: give one file, not two"))
    if not hmac and public is None:
        fail(_("give two files, PRIVATE and PUBLIC (or --hmac and one file)"))
    files = [private] if public is None else [private, public]
    try:
        if public is not None and public.resolve() == private.resolve():
            fail(_("PRIVATE and PUBLIC are the same file"))
        for path in files:
            if path.exists() or path.is_symlink():
                fail(
                    _("{path}: the file exists; keygen never overwrites a key").format(
                        path=printable(str(path))
                    )
                )
    except OSError as exc:  # a name too long, a folder that cannot be read
        fail(f"{printable(str(exc.filename or private))}: {os_reason(exc)}")
    if hmac:
        secret_pem, public_pem = new_hmac_key(), b""
    else:
        secret_pem, public_pem = new_ed25519_key()
    key = parse_key(secret_pem)
    written: list[Path] = []
    try:
        write_new_file(private, secret_pem, 0o600)
        written.append(private)
        if public is not None:
            write_new_file(public, public_pem, 0o644)
            written.append(public)
    except OSError as exc:
        for path in written:
            path.unlink(missing_ok=True)
        fail(f"{printable(str(exc.filename or private))}: {os_reason(exc)}")
    out = Console(highlight=False, soft_wrap=True)
    described = _("{alg} key {key_id}").format(alg=key.alg, key_id=key.key_id)
    if public is None:
        message = _("Wrote {path} ({key}); keep it secret.").format(
            path=printable(str(private)), key=described
        )
    else:
        message = _(
            "Wrote {private} (private; keep it secret) and {public} (public; hand it out): {key}."
        ).format(private=printable(str(private)), public=printable(str(public)), key=described)
    out.print(message, markup=False)
