"""`specmint a2a serve` driven by the official A2A SDK (a2a-sdk, pinned in requirements.txt).

    python tests/peers/a2a/client.py SPECMINT PACK...

Starts the server on a free port over a fresh store, then: fetches the Agent Card through the
SDK's resolver (the extension declared, not required, with its params); sends each PACK (a
.taskpack or .taskpack.json, the first made by specmint, the others by task-passport) as a
file part with the extension activated and checks the Task the binding defines; gets it back
with GetTask; and checks the refusals a client meets: no extension, a part that is no pack, a
pack refused by landing (its TaskPack code in `data`; in Traditional Chinese when the message's
`metadata.locale` says zh-TW), an unknown task. Exit 1 on any failure.
"""

import asyncio
import base64
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import httpx
from a2a.client import A2ACardResolver, ClientCallContext, ClientConfig, create_client
from a2a.client.errors import A2AClientError
from a2a.client.service_parameters import ServiceParametersFactory, with_a2a_extensions
from a2a.types import a2a_pb2
from a2a.utils.errors import A2AError
from google.protobuf import json_format

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from harness import check, failures  # noqa: E402

URI = "https://taskpack.org/a2a/ext/taskpack/v1"


def pack_object(path):
    """The pack object of a .taskpack or .taskpack.json, read here without specmint."""
    if path.name.endswith(".taskpack.json"):
        flat = json.loads(path.read_text("utf-8"))
        return flat["passport"], [a["name"] for a in flat.get("attachments", [])]
    with zipfile.ZipFile(path) as z:
        names = [n[len("data/files/"):] for n in z.namelist() if n.startswith("data/files/") and not n.endswith("/")]
        return json.loads(z.read("data/passport.json")), names


def message(path, *, filename=None):
    return a2a_pb2.SendMessageRequest(
        message=a2a_pb2.Message(
            message_id=f"m-{path.name}",
            role=a2a_pb2.ROLE_USER,
            parts=[
                a2a_pb2.Part(text="here is the handoff"),
                a2a_pb2.Part(raw=path.read_bytes(), filename=filename or path.name, media_type="application/octet-stream"),
            ],
        )
    )


async def refused(call):
    try:
        await call()
    except (A2AClientError, A2AError) as e:
        return e
    return None


async def main(specmint, packs):
    store = tempfile.mkdtemp(prefix="specmint-a2a-")
    server = subprocess.Popen(
        [specmint, "a2a", "serve", "--store", store, "--listen", "127.0.0.1:0"],
        stdout=subprocess.PIPE, text=True,
        # English unless a request asks: the door's default is the environment's language.
        env={k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")},
    )
    try:
        line = server.stdout.readline().strip()
        assert line.startswith("listening on http://"), line
        base = line[len("listening on "):]
        async with httpx.AsyncClient(timeout=30) as http:
            card = await A2ACardResolver(http, base).get_agent_card()
            ext = [e for e in card.capabilities.extensions if e.uri == URI]
            params = json_format.MessageToDict(ext[0].params) if ext else {}
            check("the card declares the TaskPack extension, not required",
                  len(ext) == 1 and not ext[0].required, str(card.capabilities))
            check("its params: spec taskpack/0.1, max_inline_attachment_bytes 1048576",
                  params.get("spec") == "taskpack/0.1" and params.get("max_inline_attachment_bytes") == 1048576, str(params))

            client = await create_client(card, ClientConfig(streaming=False, httpx_client=http))
            active = ClientCallContext(service_parameters=ServiceParametersFactory.create([with_a2a_extensions([URI])]))

            for path in map(Path, packs):
                pack, files = pack_object(path)
                events = [e async for e in client.send_message(message(path), context=active)]
                task = events[0].task if events and events[0].HasField("task") else None
                if task is None:
                    check(f"{path.name}: SendMessage answers a Task", False, str(events))
                    continue
                lineage = pack["lineage"]
                meta = json_format.MessageToDict(task.metadata).get(URI, {})
                landed = meta.get("landed", {})
                check(f"{path.name}: Task.id is lineage.root_id, contextId lineage.chain",
                      task.id == lineage["root_id"] and json.loads(task.context_id) == lineage["chain"],
                      f"{task.id} {task.context_id}")
                names = [a.name for a in task.artifacts if any(p.HasField("raw") for p in a.parts)]
                check(f"{path.name}: an artifact per data/files/* with its bytes, no message history",
                      sorted(names) == sorted(files) and len(task.history) == 0, f"{names} vs {files}")
                check(f"{path.name}: landed, nothing run (TASK_STATE_SUBMITTED), the passport in the extension's metadata",
                      task.status.state == a2a_pb2.TASK_STATE_SUBMITTED and meta.get("passport_id") == landed.get("passport_id")
                      and meta.get("passport", {}).get("id") == landed.get("passport_id"), str(meta)[:400])
                again = await client.get_task(a2a_pb2.GetTaskRequest(id=task.id))
                check(f"{path.name}: GetTask returns the landed passport in the same mapping",
                      again.id == task.id and again.context_id == task.context_id
                      and [a.artifact_id for a in again.artifacts] == [a.artifact_id for a in task.artifacts]
                      and json_format.MessageToDict(again.metadata)[URI]["passport_id"] == landed.get("passport_id"),
                      str(again)[:400])

            first = Path(packs[0])
            e = await refused(lambda: client.send_message(message(first)).__anext__())
            check("without the extension activated: ExtensionSupportRequiredError (-32008)",
                  e is not None and type(e).__name__ == "ExtensionSupportRequiredError", repr(e))
            e = await refused(lambda: client.send_message(message(first, filename="notes.txt"), context=active).__anext__())
            check("a file part that is no pack: ContentTypeNotSupportedError (-32005)",
                  e is not None and type(e).__name__ == "ContentTypeNotSupportedError", repr(e))
            e = await refused(lambda: client.get_task(a2a_pb2.GetTaskRequest(id="TP-NONE-0000")))
            check("an unknown task: TaskNotFoundError (-32001)",
                  e is not None and type(e).__name__ == "TaskNotFoundError", repr(e))

            # The wire itself: the header echoed, a refused pack carries the TaskPack code.
            bad = json.loads(Path(packs[0]).read_text("utf-8")) if packs[0].endswith(".json") else None
            if bad is not None:
                bad["passport"]["asks"] = [{"id": "a9", "what": "?"}]
                raw = base64.b64encode(json.dumps(bad).encode()).decode()
                body = {"jsonrpc": "2.0", "id": 7, "method": "SendMessage", "params": {"message": {
                    "messageId": "m-bad", "role": "ROLE_USER", "parts": [{"raw": raw, "filename": "bad.taskpack.json"}]}}}
                r = await http.post(base, json=body, headers={"A2A-Extensions": URI, "A2A-Version": "1.0"})
                error = r.json().get("error", {})
                check("the activated extension is echoed in A2A-Extensions", r.headers.get("A2A-Extensions") == URI, str(r.headers))
                check("a pack landing refuses: -32602 with the spec's code in data",
                      error.get("code") == -32602 and error.get("data", {}).get("code") == "ask_without_accept", str(error))
                check("its message is English without a locale",
                      error.get("message") == "ask_without_accept: ask `a9` (asks[0]) has no accept", str(error))
                # Through the SDK, the language in the message's metadata (issue 50).
                bad_path = Path(store).parent / f"{Path(store).name}-bad.taskpack.json"
                bad_path.write_text(json.dumps(bad), "utf-8")
                asked = message(bad_path)
                asked.message.metadata.update({"locale": "zh-TW"})
                e = await refused(lambda: client.send_message(asked, context=active).__anext__())
                check("metadata.locale zh-TW: the refusal's message in Traditional Chinese, its path unchanged",
                      e is not None and "ask_without_accept: 請求缺少驗收條件：必須提供 `asks[0].accept`，且不可為空白" in str(e),
                      repr(e))
                bad_path.unlink()
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"\nA2A SDK client: {'all passed' if not failures else f'{len(failures)} failed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2:])))
