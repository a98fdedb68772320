from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.forced_alignment_created import ForcedAlignmentCreated
from ...models.forced_alignment_form import ForcedAlignmentForm
from ...models.forced_alignment_multipart import ForcedAlignmentMultipart
from ...models.forced_alignment_request import ForcedAlignmentRequest
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body:    ForcedAlignmentRequest  |     ForcedAlignmentForm  |     ForcedAlignmentMultipart  | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v4/forced-alignments",
    }

    if isinstance(body, ForcedAlignmentRequest):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, ForcedAlignmentForm):
        _kwargs["data"] = body.to_dict()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if isinstance(body, ForcedAlignmentMultipart):
        _kwargs["files"] = body.to_multipart()

        headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | ForcedAlignmentCreated | None:
    if response.status_code == 200:
        response_200 = ForcedAlignmentCreated.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())



        return response_415

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())



        return response_429

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())



        return response_500

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | ForcedAlignmentCreated]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body:    ForcedAlignmentRequest  |     ForcedAlignmentForm  |     ForcedAlignmentMultipart  | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Response[Error | ForcedAlignmentCreated]:
    """ Place or quote an order: forced alignment

     An optional parameter sent empty (an empty string in a form or multipart body, an empty string or
    null in JSON) is the same as leaving it out: its default applies, and an empty callback_url means
    the account's callback URL. A required parameter sent empty is refused, naming it. Parameters of the
    other v4 creation operations are accepted and ignored; a name that no v4 operation knows is refused,
    naming it.

    Args:
        idempotency_key (str | Unset): retries with the same key get the first answer; a live
            order is placed once (also the Idempotency-Key header)
        body (ForcedAlignmentRequest):
        body (ForcedAlignmentForm):
        body (ForcedAlignmentMultipart):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ForcedAlignmentCreated]
     """


    kwargs = _get_kwargs(
        body=body,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,
    body:    ForcedAlignmentRequest  |     ForcedAlignmentForm  |     ForcedAlignmentMultipart  | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Error | ForcedAlignmentCreated | None:
    """ Place or quote an order: forced alignment

     An optional parameter sent empty (an empty string in a form or multipart body, an empty string or
    null in JSON) is the same as leaving it out: its default applies, and an empty callback_url means
    the account's callback URL. A required parameter sent empty is refused, naming it. Parameters of the
    other v4 creation operations are accepted and ignored; a name that no v4 operation knows is refused,
    naming it.

    Args:
        idempotency_key (str | Unset): retries with the same key get the first answer; a live
            order is placed once (also the Idempotency-Key header)
        body (ForcedAlignmentRequest):
        body (ForcedAlignmentForm):
        body (ForcedAlignmentMultipart):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ForcedAlignmentCreated
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body:    ForcedAlignmentRequest  |     ForcedAlignmentForm  |     ForcedAlignmentMultipart  | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Response[Error | ForcedAlignmentCreated]:
    """ Place or quote an order: forced alignment

     An optional parameter sent empty (an empty string in a form or multipart body, an empty string or
    null in JSON) is the same as leaving it out: its default applies, and an empty callback_url means
    the account's callback URL. A required parameter sent empty is refused, naming it. Parameters of the
    other v4 creation operations are accepted and ignored; a name that no v4 operation knows is refused,
    naming it.

    Args:
        idempotency_key (str | Unset): retries with the same key get the first answer; a live
            order is placed once (also the Idempotency-Key header)
        body (ForcedAlignmentRequest):
        body (ForcedAlignmentForm):
        body (ForcedAlignmentMultipart):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ForcedAlignmentCreated]
     """


    kwargs = _get_kwargs(
        body=body,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body:    ForcedAlignmentRequest  |     ForcedAlignmentForm  |     ForcedAlignmentMultipart  | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Error | ForcedAlignmentCreated | None:
    """ Place or quote an order: forced alignment

     An optional parameter sent empty (an empty string in a form or multipart body, an empty string or
    null in JSON) is the same as leaving it out: its default applies, and an empty callback_url means
    the account's callback URL. A required parameter sent empty is refused, naming it. Parameters of the
    other v4 creation operations are accepted and ignored; a name that no v4 operation knows is refused,
    naming it.

    Args:
        idempotency_key (str | Unset): retries with the same key get the first answer; a live
            order is placed once (also the Idempotency-Key header)
        body (ForcedAlignmentRequest):
        body (ForcedAlignmentForm):
        body (ForcedAlignmentMultipart):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ForcedAlignmentCreated
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
