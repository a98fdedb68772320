"""An integrator's script with the generated Python client (clients/python), run by
test/integration/pythonClient.test.ts: quotes every product (mode test) and lists the sample orders
page by page; places a live transcription whose callback comes to its own HTTP server; prints the
order id and waits for the callback (the test finishes the order meanwhile); verifies the
callback's signature with standardwebhooks; downloads the result; shows a refusal as one error.
Prints one JSON line of what it found at the end.

Then, against a second service with one document reader and two reads a minute: the token's rate
limit (429) and the service's full capacity (503), each as one OrderServiceError with Retry-After.

    python pythonClientScript.py BASE_URL API_TOKEN WEBHOOK_SECRET MEDIA_URL DOCUMENT_URL SCAN_URL \
        SMALL_BASE_URL SMALL_API_TOKEN LONG_PDF_URL
"""
import json
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qs, urlparse

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from order_service_client import Client
from order_service_client.api.orders import (
    create_ai_transcription, create_captions, create_forced_alignment, create_human_ocr, create_subtitles,
    create_transcription, create_transcription_proofreading, create_translation, get_order, get_result_file, list_orders,
)
from order_service_client.errors import OrderServiceError, or_raise
from order_service_client import models as m

base_url, token, secret, media, document, scan, small_url, small_token, long_pdf = sys.argv[1:10]
client = Client(base_url=base_url, raise_on_unexpected_status=True)
found = {}

# Every product, quoted (mode test), with its own request model.
quotes = {
    "transcription": create_transcription.sync_detailed(client=client, body=m.TranscriptionRequest(mode=m.Mode.TEST, api_token=token, url=media, language=m.LanguageSetHT.ENGLISH)),
    "ai_transcription": create_ai_transcription.sync_detailed(client=client, body=m.AiTranscriptionRequest(mode=m.Mode.TEST, api_token=token, url=media, language=m.LanguageSetAI.ENGLISH)),
    "proofreading": create_transcription_proofreading.sync_detailed(client=client, body=m.TranscriptionProofreadingRequest(mode=m.Mode.TEST, api_token=token, audio_url=media, transcription_url=document, language=m.LanguageSetHT.ENGLISH)),
    "forced_alignment": create_forced_alignment.sync_detailed(client=client, body=m.ForcedAlignmentRequest(mode=m.Mode.TEST, api_token=token, audio_url=media, transcription_url=document, language=m.LanguageSetFA.ENGLISH)),
    "translation": create_translation.sync_detailed(client=client, body=m.TranslationRequest(mode=m.Mode.TEST, api_token=token, url=document, translate_from=m.LanguageSetTL.ENGLISH, translate_to=m.LanguageSetTL.FRENCH)),
    "captions": create_captions.sync_detailed(client=client, body=m.CaptionsRequest(mode=m.Mode.TEST, api_token=token, url=media, language=m.LanguageSetHT.ENGLISH)),
    "subtitles": create_subtitles.sync_detailed(client=client, body=m.SubtitlesRequest(mode=m.Mode.TEST, api_token=token, url=media, translate_from=m.LanguageSetTL.ENGLISH, translate_to=m.LanguageSetTL.GERMAN)),
    "human_ocr": create_human_ocr.sync_detailed(client=client, body=m.HumanOcrRequest(mode=m.Mode.TEST, api_token=token, url=scan, language=m.LanguageSetHT.ENGLISH)),
}
found["quotes"] = {name: or_raise(answer).order_total for name, answer in quotes.items()}

# The sample orders (mode test), page by page.
ids, cursor = [], None
while True:
    page = or_raise(list_orders.sync_detailed(client=client, api_token=token, mode=m.ListOrdersMode.TEST, per_page=3, **({"cursor": cursor} if cursor else {})))
    ids += [order.id for order in page.orders]
    if not page.next_page_url:
        break
    cursor = parse_qs(urlparse(page.next_page_url).query)["cursor"][0]
found["sample_ids"] = ids

# The callback receiver: keeps the raw body and headers of the first callback.
received = threading.Event()
callback = {}


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        callback.update(body=body, headers={k.lower(): v for k, v in self.headers.items()})
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")
        received.set()

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", 0), Receiver)
threading.Thread(target=server.serve_forever, daemon=True).start()

placed = or_raise(create_transcription.sync_detailed(
    client=client,
    body=m.TranscriptionRequest(mode=m.Mode.LIVE, api_token=token, url=media, language=m.LanguageSetHT.ENGLISH,
                                vocabulary=["Siobhan", "Zyphrex"],
                                callback_url=f"http://127.0.0.1:{server.server_address[1]}/hook"),
    idempotency_key="python-client-1",
))
print(json.dumps({"order_id": placed.order_id}), flush=True)  # the test finishes the order now
if not received.wait(120):
    sys.exit("no callback within 120 s")

try:
    Webhook(secret).verify(callback["body"], callback["headers"], json_parse=False)  # the body is a form
    found["signature"] = "valid"
except WebhookVerificationError:
    found["signature"] = "invalid"
try:
    # One byte of the body changed (the last one, the form's closing boundary).
    tampered = callback["body"][:-3] + bytes([callback["body"][-3] ^ 1]) + callback["body"][-2:]
    Webhook(secret).verify(tampered, callback["headers"], json_parse=False)
    found["tampered"] = "accepted"
except WebhookVerificationError:
    found["tampered"] = "refused"

order = or_raise(get_order.sync_detailed(str(placed.order_id), client=client, api_token=token, mode=m.GetOrderMode.LIVE))
found["status"] = str(order.data.status)
found["vocabulary"] = order.data.vocabulary
text = get_result_file.sync_detailed(str(placed.order_id), m.GetResultFileKind.TRANSCRIPTION, client=client, api_token=token, format_=m.GetResultFileFormat.TEXT)
found["text"] = text.content.decode()
docx = get_result_file.sync_detailed(str(placed.order_id), m.GetResultFileKind.TRANSCRIPTION, client=client, api_token=token)
found["docx_head"] = docx.content[:2].decode("latin-1")

try:
    or_raise(create_transcription.sync_detailed(client=client, body=m.TranscriptionRequest(mode=m.Mode.TEST, api_token=token, url="not a url", language=m.LanguageSetHT.ENGLISH)))
except OrderServiceError as err:
    found["refusal"] = {"status": err.status_code, "message": err.message, "retryable": err.retryable}


def refusal_of(answer):
    """The OrderServiceError or_raise makes of an answer, as plain fields (None when it succeeded)."""
    try:
        or_raise(answer)
        return None
    except OrderServiceError as err:
        return {"status": err.status_code, "message": err.message, "retry_after_seconds": err.retry_after_seconds, "retryable": err.retryable}


small = Client(base_url=small_url, raise_on_unexpected_status=True)
# The token's rate limit: the third read in a minute.
reads = [list_orders.sync_detailed(client=small, api_token=small_token, mode=m.ListOrdersMode.TEST) for _ in range(3)]
found["limited"] = refusal_of(reads[-1])


# The service's capacity: three long documents at once, one reader that lets nothing wait.
def quote_long(_):
    own = Client(base_url=small_url, raise_on_unexpected_status=True)
    return create_translation.sync_detailed(client=own, body=m.TranslationRequest(
        mode=m.Mode.TEST, api_token=small_token, url=long_pdf, translate_from=m.LanguageSetTL.ENGLISH, translate_to=m.LanguageSetTL.SPANISH))


with ThreadPoolExecutor(3) as pool:
    busy = [refusal_of(answer) for answer in pool.map(quote_long, range(3))]
found["busy"] = next((b for b in busy if b and b["status"] == 503), busy)

server.shutdown()
print(json.dumps(found), flush=True)
