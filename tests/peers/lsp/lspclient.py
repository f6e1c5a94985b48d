"""A small LSP client over stdio for `specmint lsp`: Content-Length framing, requests
answered in order, notifications kept; every result structured with lsprotocol's converter
(the LSP's own types, generated from the protocol's meta-model), so a reply of the wrong
shape fails here."""

import json
import subprocess
import threading
import queue

from lsprotocol import converters


class Client:
    def __init__(self, cmd):
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.converter = converters.get_converter()
        self.next_id = 0
        self.inbox = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.diagnostics = {}
        # URIs whose diagnostics were published and not yet read by wait_diagnostics.
        self.fresh = set()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            self.inbox.put(json.loads(out.read(length)))

    def send_raw(self, body: bytes):
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def send(self, message):
        message = {"jsonrpc": "2.0", **message}
        self.send_raw(json.dumps(message).encode())

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def _next(self, timeout=30):
        m = self.inbox.get(timeout=timeout)
        if m is None:
            raise EOFError("the server closed its output")
        if m.get("method") == "textDocument/publishDiagnostics":
            self.diagnostics[m["params"]["uri"]] = m["params"]["diagnostics"]
            self.fresh.add(m["params"]["uri"])
        return m

    def reply(self, timeout=30):
        """The next message that is not a notification."""
        while True:
            m = self._next(timeout)
            if "method" not in m:
                return m

    def request(self, method, params, result_type=None):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        m = self.reply()
        assert m.get("id") == self.next_id, m
        if "error" in m:
            raise RuntimeError(f"{method}: {m['error']}")
        if result_type is not None and m["result"] is not None:
            self.converter.structure(m["result"], result_type)
        return m["result"]

    def wait_diagnostics(self, uri, timeout=30):
        """The diagnostics published for `uri` since they were last read (waiting for them)."""
        while uri not in self.fresh:
            self._next(timeout)
        self.fresh.discard(uri)
        return self.diagnostics[uri]

    def settle(self, uri):
        """Reads everything the server sent so far (a request's reply comes after every
        diagnostic it published, the server checking pending changes first), then forgets
        which diagnostics were fresh: the next wait_diagnostics is for a later publish."""
        self.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        self.fresh.clear()

    def initialize(self, root_uri=None):
        from lsprotocol.types import InitializeResult

        r = self.request(
            "initialize",
            {"processId": None, "rootUri": root_uri, "capabilities": {}},
            InitializeResult,
        )
        self.notify("initialized", {})
        return r

    def close(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.proc.stdin.close()
        return self.proc.wait(timeout=30)
