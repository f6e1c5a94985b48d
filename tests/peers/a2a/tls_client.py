"""`specmint a2a serve` over TLS with a bearer token, driven by the official A2A SDK (a2a-sdk, pinned).

    python tests/peers/a2a/tls_client.py SPECMINT PACK

Makes a test CA and a certificate for localhost / 127.0.0.1 (tests/peers/harness.py) and a
token file, starts the door with --tls-cert, --tls-key and --token-file, then: the SDK's
resolver reads the card over HTTPS and sees the bearer scheme (`securitySchemes`,
`securityRequirements`); a client with the SDK's AuthInterceptor (which adds
`Authorization: Bearer` because the card asks for it) lands PACK; a client without the token is
refused with HTTP 401, and lands nothing. Exit 1 on any failure.
"""

import asyncio
import ssl
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx
from a2a.client import A2ACardResolver, ClientCallContext, ClientConfig, create_client
from a2a.client.auth.credentials import CredentialService
from a2a.client.auth.interceptor import AuthInterceptor
from a2a.client.service_parameters import ServiceParametersFactory, with_a2a_extensions
from a2a.types import a2a_pb2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from harness import certificates, check, failures  # noqa: E402

URI = "https://taskpack.org/a2a/ext/taskpack/v1"
TOKEN = "door-token-7f3a9c"


class Token(CredentialService):
    """The door's token for its `bearer` scheme."""

    async def get_credentials(self, security_scheme_name, context):
        return TOKEN if security_scheme_name == "bearer" else None


def message(path):
    return a2a_pb2.SendMessageRequest(
        message=a2a_pb2.Message(
            message_id=f"m-{path.name}",
            role=a2a_pb2.ROLE_USER,
            parts=[a2a_pb2.Part(raw=path.read_bytes(), filename=path.name, media_type="application/octet-stream")],
        )
    )


def passports(store):
    return sorted(p.name for p in Path(store).glob("*.json") if not p.name.startswith("."))


async def main(specmint, pack):
    pack = Path(pack)
    work = Path(tempfile.mkdtemp(prefix="specmint-a2a-tls-"))
    certificates(work, {"door": ["localhost", "127.0.0.1"]})
    cert_file, key_file = work / "door.pem", work / "door.key"
    tokens = work / "tokens"
    tokens.write_text(f"# the door's tokens\n{TOKEN}\n", "utf-8")
    store = work / "store"
    server = subprocess.Popen(
        [specmint, "a2a", "serve", "--passports", str(store), "--listen", "127.0.0.1:0",
         "--token-file", str(tokens), "--tls-cert", str(cert_file), "--tls-key", str(key_file)],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        line = server.stdout.readline().strip()
        check("the first line names an https URL", line.startswith("listening on https://127.0.0.1:"), line)
        base = line[len("listening on "):]
        trust = ssl.create_default_context(cafile=str(work / "ca.pem"))
        active = ClientCallContext(service_parameters=ServiceParametersFactory.create([with_a2a_extensions([URI])]))
        async with httpx.AsyncClient(timeout=30, verify=trust) as http:
            card = await A2ACardResolver(http, base).get_agent_card()
            scheme = card.security_schemes["bearer"] if "bearer" in card.security_schemes else None
            check("the resolver sees the bearer scheme (httpAuthSecurityScheme, Bearer)",
                  scheme is not None and scheme.HasField("http_auth_security_scheme")
                  and scheme.http_auth_security_scheme.scheme == "Bearer", str(card.security_schemes))
            check("and a requirement naming it",
                  [list(r.schemes.keys()) for r in card.security_requirements] == [["bearer"]],
                  str(card.security_requirements))
            check("the card advertises the https URL", card.supported_interfaces[0].url == base,
                  str(card.supported_interfaces))

            bare = await create_client(card, ClientConfig(streaming=False, httpx_client=http))
            try:
                [e async for e in bare.send_message(message(pack), context=active)]
                refused = None
            except Exception as e:  # noqa: BLE001 - the SDK's error for an HTTP 401
                refused = e
            check("without the token: refused with HTTP 401", refused is not None and "401" in str(refused), repr(refused))
            check("and nothing landed", passports(store) == [], str(passports(store)))

            authed = await create_client(card, ClientConfig(streaming=False, httpx_client=http),
                                         interceptors=[AuthInterceptor(Token())])
            events = [e async for e in authed.send_message(message(pack), context=active)]
            task = events[0].task if events and events[0].HasField("task") else None
            check("with the token (the SDK's AuthInterceptor): the pack lands over TLS",
                  task is not None and task.status.state == a2a_pb2.TASK_STATE_SUBMITTED, str(events)[:400])
            check("one passport in the store", len(passports(store)) == 1, str(passports(store)))
    finally:
        server.terminate()
        code = server.wait(timeout=10)
        check("SIGTERM: the door exits 0", code == 0, str(code))
    print(f"\nA2A SDK client over TLS with a token: {'all passed' if not failures else f'{len(failures)} failed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2])))
