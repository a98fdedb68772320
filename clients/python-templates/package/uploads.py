"""upload(path): a local file to the order service by tus 1.0 (https://tus.io/protocols/resumable-upload),
resumable, in chunks of 8 MiB, answering the URL an order's ``url`` (or a document field such as
``transcription_url``) takes.

A small tus client over the httpx client of ``Client``/``AuthenticatedClient`` (its base URL, TLS and
timeout settings): creation (``POST /api/v4/uploads`` with ``Upload-Length``), ``PATCH`` from the
offset, ``HEAD`` to find the offset again after a dropped connection, and a JSON file of unfinished
uploads so that uploading the same file again resumes where the service left it.

Written by hand (clients/python-templates/package/uploads.py): ``npm run client:generate`` copies it
into the generated package as it is.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import httpx

from .client import AuthenticatedClient, Client
from .errors import OrderServiceError
from .models.error import Error

UPLOADS_PATH = "/api/v4/uploads"
DEFAULT_CHUNK_SIZE = 8 * 1024 * 1024
"""Bytes per PATCH: 8 MiB."""
DEFAULT_RETRY_DELAYS: tuple[float, ...] = (0.0, 1.0, 3.0, 5.0, 10.0)
"""Seconds to wait before each retry of a failed request (a dropped connection, a 5xx, a 409 or 423)."""
TUS_VERSION = "1.0.0"
# Requests without a timeout of the caller's: a stalled connection fails and is retried, not waited on forever.
_TIMEOUT = httpx.Timeout(120.0, connect=15.0)


def default_resume_store() -> Path:
    """Where unfinished uploads are remembered unless ``resume_store`` says otherwise."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "order-service-client" / "uploads.json"


def upload(
    path: str | os.PathLike[str],
    *,
    client: Client | AuthenticatedClient,
    api_token: str | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    resume_store: str | os.PathLike[str] | Literal[False] | None = None,
    retry_delays: Sequence[float] = DEFAULT_RETRY_DELAYS,
    on_progress: Callable[[int, int], None] | None = None,
) -> str:
    """Uploads the file at ``path`` by tus and answers its URL, to order it by.

    ``api_token``: the account's token, sent as ``Authorization: Bearer``; an ``AuthenticatedClient``
    sends its own. ``resume_store``: the JSON file where unfinished uploads are remembered (``None``:
    ``~/.cache/order-service-client/uploads.json``, or under ``$XDG_CACHE_HOME``); ``False`` remembers
    nothing. An earlier attempt at the same file (its path, size and modification time) is resumed from
    the offset the service reports. ``on_progress(bytes_sent, bytes_total)`` is called after each chunk.

    Raises ``OrderServiceError`` when the service refuses (400 a wrong token, 413 a file over its
    largest upload, …) or still fails after the retries; ``OSError`` when the file cannot be read.
    """
    if chunk_size <= 0:
        raise ValueError("chunk_size must be positive")
    token = api_token or (client.token if isinstance(client, AuthenticatedClient) else None)
    if not token:
        raise ValueError("upload() needs the account's API token: api_token, or an AuthenticatedClient")
    file_path = Path(path).resolve()
    stat = file_path.stat()
    size = stat.st_size
    session = _Session(client, token, retry_delays)
    store = _ResumeStore(default_resume_store() if resume_store is None else resume_store or None)
    fingerprint = hashlib.sha256(f"{session.endpoint}\n{file_path}\n{size}\n{stat.st_mtime_ns}".encode()).hexdigest()

    url = store.get(fingerprint)
    offset = session.offset_of(url, size) if url else None
    if url is None or offset is None:
        url = session.create(size, file_path.name)
        offset = 0
        store.put(fingerprint, url)
    with file_path.open("rb") as file:
        while offset < size:
            file.seek(offset)
            offset = session.send(url, offset, file.read(chunk_size), size)
            if on_progress:
                on_progress(offset, size)
    store.forget(fingerprint)
    return url


class _Session:
    """The tus requests of one upload, each retried after a dropped connection or a passing failure."""

    def __init__(self, client: Client | AuthenticatedClient, token: str, retry_delays: Sequence[float]):
        self.http = client.get_httpx_client()
        self.endpoint = str(self.http.base_url.join(UPLOADS_PATH))
        self.headers = {"Tus-Resumable": TUS_VERSION, "Authorization": f"Bearer {token}"}
        self.retry_delays = list(retry_delays)
        self.timeout = _TIMEOUT if self.http.timeout.read is None else self.http.timeout

    def request(self, method: str, url: str, headers: dict[str, str], content: bytes | None = None) -> httpx.Response:
        return self.http.request(
            method, url, headers={**self.headers, **headers}, content=content, timeout=self.timeout
        )

    def create(self, size: int, name: str) -> str:
        metadata = "filename " + base64.b64encode(name.encode()).decode()
        headers = {"Upload-Length": str(size), "Upload-Metadata": metadata}
        response = self._retrying(lambda: self.request("POST", self.endpoint, headers))
        location = response.headers.get("location")
        if response.status_code != 201 or not location:
            raise _service_error(response)
        return str(response.url.join(location))

    def offset_of(self, url: str, size: int) -> int | None:
        """Where the upload at ``url`` goes on; None when it cannot (gone, another length): a new one, then."""
        response = self._retrying(lambda: self.request("HEAD", url, {}))
        offset = response.headers.get("upload-offset", "")
        if response.status_code != 200 or response.headers.get("upload-length") != str(size) or not offset.isdigit():
            return None
        return int(offset)

    def send(self, url: str, offset: int, chunk: bytes, size: int) -> int:
        """PATCHes ``chunk`` at ``offset``; the offset the service holds after it."""
        attempt = 0
        while True:
            try:
                headers = {"Upload-Offset": str(offset), "Content-Type": "application/offset+octet-stream"}
                response = self.request("PATCH", url, headers, chunk)
                if response.status_code == 204:
                    return int(response.headers["upload-offset"])
                failure: Exception = _service_error(response)
                if not _retryable(response.status_code):
                    raise failure
            except httpx.TransportError as err:
                failure = err
            if attempt == len(self.retry_delays):
                raise failure
            time.sleep(self.retry_delays[attempt])
            attempt += 1
            # A dropped PATCH may have left part of its bytes: go on from what the service holds.
            held = self.offset_of(url, size)
            if held is None:
                raise failure
            if held != offset:
                return held

    def _retrying(self, send: Callable[[], httpx.Response]) -> httpx.Response:
        for attempt in range(len(self.retry_delays) + 1):
            try:
                response = send()
                if not _retryable(response.status_code) or attempt == len(self.retry_delays):
                    return response
            except httpx.TransportError:
                if attempt == len(self.retry_delays):
                    raise
            time.sleep(self.retry_delays[attempt])
        raise AssertionError("unreachable")


def _retryable(status: int) -> bool:
    """As tus clients do: the service's failures, an offset that moved (409) or an upload busy elsewhere (423)."""
    return status >= 500 or status in (409, 423)


def _service_error(response: httpx.Response) -> OrderServiceError:
    """The service's refusal as the client's one error: its error object, or tus's plain text."""
    status = response.status_code
    retry_after = response.headers.get("retry-after")
    seconds = int(retry_after) if retry_after is not None and retry_after.isdigit() else None
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and isinstance(body.get("error"), str):
        error = Error.from_dict(body)
        return OrderServiceError(status, error.error, seconds, error)
    text = response.text.strip()
    return OrderServiceError(status, f"{text} ({status})" if text else f"the order service answered {status}", seconds)


class _ResumeStore:
    """Unfinished uploads by the fingerprint of their file, in a JSON file (or nowhere)."""

    def __init__(self, path: str | os.PathLike[str] | None):
        self.path = Path(path) if path else None

    def _read(self) -> dict[str, Any]:
        if self.path is None:
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self, data: dict[str, Any]) -> None:
        assert self.path is not None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Replaced whole: a reader never sees half a file.
        handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".uploads-")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(data, out)
        os.replace(temporary, self.path)

    def get(self, fingerprint: str) -> str | None:
        entry = self._read().get(fingerprint)
        return entry.get("url") if isinstance(entry, dict) else None

    def put(self, fingerprint: str, url: str) -> None:
        if self.path is not None:
            self._write({**self._read(), fingerprint: {"url": url, "created_at": datetime.now(UTC).isoformat()}})

    def forget(self, fingerprint: str) -> None:
        data = self._read()
        if self.path is not None and fingerprint in data:
            del data[fingerprint]
            self._write(data)


__all__ = ["DEFAULT_CHUNK_SIZE", "DEFAULT_RETRY_DELAYS", "UPLOADS_PATH", "default_resume_store", "upload"]
