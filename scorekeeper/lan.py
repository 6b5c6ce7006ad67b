"""Print the address phones on the same network should open (used by `make run`), and,
while the server has no account, the one-time set-up code for making the first one."""

from __future__ import annotations

import socket
import sys


def lan_address() -> str:
    """This machine's address on the local network, found without sending anything."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address: str = probe.getsockname()[0]
        return address
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def setup_code() -> str | None:
    """A new set-up code if the server's database has no account yet."""
    from . import create_app
    from .user_commands import new_setup_code

    with create_app().app_context():
        return new_setup_code()


def main(argv: list[str]) -> None:
    port = argv[1] if len(argv) > 1 else "8000"
    base = f"http://{lan_address()}:{port}"
    print("\n  Scorekeeper is starting. On a phone on the same Wi-Fi, open:\n")
    print(f"      {base}/\n")
    print(f"  On this machine: http://127.0.0.1:{port}/\n")
    code = setup_code()
    if code is not None:
        print("  Nobody has an account yet. Make the first one (it runs this server) at:\n")
        print(f"      {base}/setup?code={code}\n")
        print(f"  or enter the set-up code {code} there. Only this terminal shows it.\n")


if __name__ == "__main__":
    main(sys.argv)
