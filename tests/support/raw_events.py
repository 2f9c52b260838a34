"""Call any event of a running Gradio app as its page's JavaScript does (``queue/join`` with
the event's number, then the session's message stream), private events included: what a
client that skips the page can do."""

from __future__ import annotations

import json
import urllib.request
import uuid


class RawSession:
    """One browser session of the app at ``url`` (its states are kept between calls)."""

    def __init__(self, url: str, timeout: float = 120) -> None:
        self.url = url
        self.timeout = timeout
        self.session_hash = uuid.uuid4().hex
        with urllib.request.urlopen(f"{url}config", timeout=timeout) as response:
            config = json.load(response)
        self.dependencies = config["dependencies"]
        self.fn_index = {dep["api_name"]: n for n, dep in enumerate(self.dependencies)}
        self.components = {component["id"]: component for component in config["components"]}

    def default_inputs(self, api_name: str, **chosen: object) -> list:
        """The values the page shows at first for the inputs of event ``api_name``, but those
        of the components whose elem_id (``-`` written ``_``) is a keyword of ``chosen``."""
        values = []
        for number in self.dependencies[self.fn_index[api_name]]["inputs"]:
            props = self.components[number].get("props", {})
            name = (props.get("elem_id") or "").replace("-", "_")
            values.append(chosen[name] if name in chosen else props.get("value"))
        return values

    def call(self, api_name: str, data: list) -> dict:
        """The event ``api_name`` (as named in the config) with ``data``: the final
        message, whose ``success`` says whether it answered and ``output`` what."""
        body = {
            "data": data,
            "fn_index": self.fn_index[api_name],
            "session_hash": self.session_hash,
            "event_data": None,
            "trigger_id": None,
        }
        request = urllib.request.Request(
            f"{self.url}gradio_api/queue/join",
            json.dumps(body).encode(),
            {"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=self.timeout) as response:
            event_id = json.load(response)["event_id"]
        stream = f"{self.url}gradio_api/queue/data?session_hash={self.session_hash}"
        with urllib.request.urlopen(stream, timeout=self.timeout) as response:
            for line in response:
                if not line.startswith(b"data:"):
                    continue
                message = json.loads(line[5:])
                if message.get("event_id") == event_id and message["msg"] == "process_completed":
                    return message
        raise RuntimeError(f"no answer to {api_name}")

    def upload(self, name: str, content: bytes) -> dict:
        """Upload a file as the page's file picker does; the FileData to pass to an event."""
        boundary = uuid.uuid4().hex
        body = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="{name}"'
            f"\r\nContent-Type: application/octet-stream\r\n\r\n"
        ).encode() + content + f"\r\n--{boundary}--\r\n".encode()
        request = urllib.request.Request(
            f"{self.url}gradio_api/upload",
            body,
            {"Content-Type": f"multipart/form-data; boundary={boundary}"},
        )
        with urllib.request.urlopen(request, timeout=self.timeout) as response:
            (path,) = json.load(response)
        return {"path": path, "orig_name": name, "meta": {"_type": "gradio.FileData"}}
