"""`gpu-advisor web [--host 127.0.0.1] [--port 8000]`: the same Textual app, served to a browser.

Why: some of the people who buy GPUs will not open a terminal. textual-serve (Textualize's package, the
optional extra `web`) runs one `gpu-advisor` process per browser tab under Textual's web driver and relays
the screen to xterm.js in the page; the app itself is the very one the terminal runs.

Safety: the app can write files where the user asks (`/save PATH`) with this user's rights, and anyone who
can reach the port can use it, so it is bound to 127.0.0.1 unless `--host` says otherwise, and a host that
is not a loopback address gets a clear warning. textual-serve missing, a port already taken, or a host that
does not resolve end with one line, never a traceback.
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import shlex
import socket
import sys
from typing import Any

from advisor.locales import LOCALES, Locale

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, not {value}")
    return value


def add_arguments(parser: argparse.ArgumentParser, name: str = "web") -> None:
    # SUPPRESS: keep a `--lang` given before the subcommand (gpu-advisor --lang zh-Hant web).
    parser.add_argument("--lang", choices=list(LOCALES), default=argparse.SUPPRESS,
                        help="language of the app (default: the environment's)")
    parser.add_argument("--host", default=DEFAULT_HOST,
                        help=f"address to listen on (default {DEFAULT_HOST}: this computer only)")
    parser.add_argument("--port", type=_port, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    parser.add_argument("--public-url", metavar="URL",
                        help="the address browsers use to reach the server, when it differs from http://HOST:PORT "
                             "(behind a proxy, or listening on 0.0.0.0)")


def _t(key: str, locale: Locale, **values: Any) -> str:
    """The command's words (knowledge/ui/commands.yaml, keys `web.*`)."""
    from advisor.i18n import t

    return t(f"web.{key}", locale, **values)


def loopback_only(host: str) -> bool:
    """True when every address `host` names is a loopback address (127.0.0.0/8, ::1); raises OSError
    (socket.gaierror) when it does not resolve."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        pass
    infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    return all(ipaddress.ip_address(str(info[4][0]).split("%")[0]).is_loopback for info in infos)


def _url(host: str, port: int) -> str:
    host = host.strip("[]")
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _port_free(host: str, port: int) -> bool:
    """Whether (host, port) can be listened on, with the SO_REUSEADDR that aiohttp's server uses too."""
    for family, kind, proto, _name, address in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as exc:
                if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                    return False
                raise
    return True


def app_command(lang: str | None) -> str:
    """The command textual-serve starts for each browser tab: this Python, this package, the TUI."""
    command = f"{shlex.quote(sys.executable)} -m advisor.cli"
    return f"{command} --lang {shlex.quote(lang)}" if lang else command


def run(args: argparse.Namespace) -> int:
    from advisor.conversation.dialogue import env_locale
    from advisor.sanitize import one_line

    lang = getattr(args, "lang", None)
    locale: Locale = lang if lang in LOCALES else env_locale()
    host, port = str(args.host).strip(), int(args.port)
    err = sys.stderr
    try:
        from textual_serve.server import Server
    except ImportError:
        print(f"gpu-advisor web: {_t('missing', locale)}", file=err)
        return 2
    try:
        local = loopback_only(host)
        free = _port_free(host, port)
    except OSError as exc:
        print(f"gpu-advisor web: {_t('bad_host', locale, host=one_line(host), detail=one_line(str(exc)))}", file=err)
        return 2
    if not free:
        print(f"gpu-advisor web: {_t('port_taken', locale, port=port, host=one_line(host))}", file=err)
        return 2
    if not local:
        print(f"gpu-advisor web: {_t('exposed', locale, host=one_line(host), port=port)}", file=err)
    url = getattr(args, "public_url", None) or _url(host, port)

    class AdvisorServer(Server):
        """textual-serve's server, announcing itself in the user's language instead of with its logo."""

        async def on_startup(self, app: Any) -> None:
            print(_t("serving", locale, url=url), flush=True)

    from advisor.i18n import t

    server = AdvisorServer(app_command(lang), host=host.strip("[]"), port=port, title=t("app.title", locale),
                           public_url=url)
    try:
        server.serve()
    except OSError as exc:  # the port was taken between the check and the bind
        if exc.errno == errno.EADDRINUSE:
            print(f"gpu-advisor web: {_t('port_taken', locale, port=port, host=one_line(host))}", file=err)
        else:
            print(f"gpu-advisor web: {_t('bad_host', locale, host=one_line(host), detail=one_line(str(exc)))}",
                  file=err)
        return 2
    return 0
