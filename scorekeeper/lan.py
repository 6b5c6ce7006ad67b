"""Print the address phones on the same network should open (used by `make run`)."""

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


def main(argv: list[str]) -> None:
    port = argv[1] if len(argv) > 1 else "8000"
    print("\n  Scorekeeper is starting. On a phone on the same Wi-Fi, open:\n")
    print(f"      http://{lan_address()}:{port}/\n")
    print(f"  On this machine: http://127.0.0.1:{port}/\n")


if __name__ == "__main__":
    main(sys.argv)
