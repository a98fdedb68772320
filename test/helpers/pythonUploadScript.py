"""An integrator's script with the Python client's upload() (clients/python, order_service_client.uploads),
run by test/integration/pythonClient.test.ts: uploads a local file of more than 8 MiB by tus and orders
it live by the URL it answers; interrupts an upload of another file half-way, finds its offset with the
generated get_upload_offset, and uploads the file again, which resumes; uploads it over connections
that drop a PATCH's answer and a PATCH itself, which upload() retries; uploads a small file with the
generated one-shot upload_file and quotes it; meets a wrong token as one OrderServiceError. Prints one
JSON line of what it found.

    python pythonUploadScript.py BASE_URL API_TOKEN LARGE_WAV SMALL_WAV RESUME_STORE
"""
import json
import sys
from pathlib import Path

import httpx

from order_service_client import AuthenticatedClient, Client
from order_service_client import models as m
from order_service_client.api.orders import create_ai_transcription
from order_service_client.api.uploads import get_upload_offset, upload_file
from order_service_client.errors import OrderServiceError, or_raise
from order_service_client.types import File
from order_service_client.uploads import DEFAULT_CHUNK_SIZE, upload

base_url, token, large, small, store = sys.argv[1:6]
client = Client(base_url=base_url, raise_on_unexpected_status=True)
authenticated = AuthenticatedClient(base_url=base_url, token=token, raise_on_unexpected_status=True)
found = {"default_chunk_size": DEFAULT_CHUNK_SIZE}


def order(url: str, mode: m.Mode = m.Mode.LIVE) -> int:
    """The seconds the service measured in the file behind `url`, ordered (or quoted) as AI transcription."""
    body = m.AiTranscriptionRequest(mode=mode, api_token=token, url=url, language=m.LanguageSetAI.ENGLISH)
    return or_raise(create_ai_transcription.sync_detailed(client=client, body=body)).seconds


# A file of more than one chunk, by tus in the default chunks of 8 MiB, ordered live.
offsets = []
url = upload(large, client=client, api_token=token, resume_store=store, on_progress=lambda sent, total: offsets.append([sent, total]))
found["large"] = {"url": url, "offsets": offsets, "seconds": order(url)}


# An upload stopped half-way (as by Ctrl-C), then the same file again: resumed where the service left it.
class Interrupted(Exception):
    pass


def interrupt(sent: int, total: int) -> None:
    if sent >= 3 * 65536:
        raise Interrupted()


try:
    upload(small, client=authenticated, chunk_size=65536, resume_store=store, on_progress=interrupt)
    found["interrupted"] = False
except Interrupted:
    found["interrupted"] = True
remembered = [entry["url"] for entry in json.loads(Path(store).read_text()).values()]
held = get_upload_offset.sync_detailed(remembered[0].rsplit("/", 1)[1], client=authenticated, tus_resumable=m.TusResumable.VALUE_0)
resumed_from = []
again = upload(small, client=authenticated, chunk_size=65536, resume_store=store, on_progress=lambda sent, total: resumed_from.append(sent))
found["resumed"] = {
    "remembered": remembered,
    "held_offset": int(held.headers["upload-offset"]),
    "url": again,
    "first_progress": resumed_from[0],
    "store_after": json.loads(Path(store).read_text()),
    "seconds": order(again),
}

# Dropped connections: the second PATCH's answer is lost after the service took its bytes, the third
# PATCH is lost before it is sent. upload() asks HEAD where to go on and continues.
class Flaky(httpx.BaseTransport):
    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.patches = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "PATCH":
            self.patches += 1
            if self.patches == 2:
                taken = self.inner.handle_request(request)
                taken.read()
                taken.close()
                raise httpx.ReadError("the answer was lost", request=request)
            if self.patches == 3:
                raise httpx.ConnectError("the request was lost", request=request)
        return self.inner.handle_request(request)


flaky = Flaky()
flaky_client = Client(base_url=base_url).set_httpx_client(httpx.Client(base_url=base_url, transport=flaky))
dropped = upload(small, client=flaky_client, api_token=token, chunk_size=65536, resume_store=False, retry_delays=(0, 0, 0))
found["dropped"] = {"patches": flaky.patches, "seconds": order(dropped, m.Mode.TEST)}

# The generated one-shot upload (POST /api/v4/uploads, the file as the body), then a quote of it.
with open(small, "rb") as payload:
    one_shot = or_raise(upload_file.sync_detailed(client=authenticated, body=File(payload=payload)))
found["one_shot"] = {"url": one_shot.url, "size": one_shot.size, "seconds": order(one_shot.url, m.Mode.TEST)}

# A wrong token: the service's error object, as one OrderServiceError.
try:
    upload(small, client=client, api_token="not-a-token", resume_store=False)
except OrderServiceError as err:
    found["refusal"] = {"status": err.status_code, "message": err.message, "retryable": err.retryable}

print(json.dumps(found))
