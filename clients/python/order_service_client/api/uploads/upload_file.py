from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.upload import Upload
from ...types import File, FileTypes
from ...types import UNSET, Unset
from io import BytesIO
from typing import cast



def _get_kwargs(
    *,
    body:    File  |     File  | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v4/uploads",
    }

    if isinstance(body, File):
        if not isinstance(body, Unset):
            _kwargs["content"] = body.payload
        headers["Content-Type"] = "*/*"
    if isinstance(body, File):
        if not isinstance(body, Unset):
            _kwargs["content"] = body.payload
        headers["Content-Type"] = "application/octet-stream"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Upload | None:
    if response.status_code == 201:
        response_201 = Upload.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

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

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Upload]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body:    File  |     File  | Unset = UNSET,

) -> Response[Error | Upload]:
    """ Upload a file to order with (one request, or the creation of a resumable tus upload)

     One request: the file's own bytes are the body, of any Content-Type (the service goes by the bytes,
    never by the type or a name), without a `Tus-Resumable` header and without a Content-Encoding; the
    answer is 201 with the upload (`url`, `size`, `expires_at`) and `Location`. E.g. `curl --data-binary
    @talk.mp3 -H 'Authorization: Bearer <api_token>' https://orders.example.com/api/v4/uploads`.

    Resumable, for large files ([tus 1.0 creation](https://tus.io/protocols/resumable-upload#creation)):
    the same POST with `Tus-Resumable: 1.0.0` and `Upload-Length: <bytes>` (or `Upload-Defer-Length:
    1`), optionally `Upload-Metadata` (`filename <base64>`), and no body (or its first bytes as
    `application/offset+octet-stream`) creates an upload: 201 with no body, its URL in `Location` (also
    its `url` to order with once complete) and `Upload-Expires`; then `PATCH /api/v4/uploads/{id}` sends
    the bytes. An `Upload-Length` over `Tus-Max-Size` is a 413 before a byte is stored.

    Args:
        body (File | Unset):
        body (File | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Upload]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body:    File  |     File  | Unset = UNSET,

) -> Error | Upload | None:
    """ Upload a file to order with (one request, or the creation of a resumable tus upload)

     One request: the file's own bytes are the body, of any Content-Type (the service goes by the bytes,
    never by the type or a name), without a `Tus-Resumable` header and without a Content-Encoding; the
    answer is 201 with the upload (`url`, `size`, `expires_at`) and `Location`. E.g. `curl --data-binary
    @talk.mp3 -H 'Authorization: Bearer <api_token>' https://orders.example.com/api/v4/uploads`.

    Resumable, for large files ([tus 1.0 creation](https://tus.io/protocols/resumable-upload#creation)):
    the same POST with `Tus-Resumable: 1.0.0` and `Upload-Length: <bytes>` (or `Upload-Defer-Length:
    1`), optionally `Upload-Metadata` (`filename <base64>`), and no body (or its first bytes as
    `application/offset+octet-stream`) creates an upload: 201 with no body, its URL in `Location` (also
    its `url` to order with once complete) and `Upload-Expires`; then `PATCH /api/v4/uploads/{id}` sends
    the bytes. An `Upload-Length` over `Tus-Max-Size` is a 413 before a byte is stored.

    Args:
        body (File | Unset):
        body (File | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Upload
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body:    File  |     File  | Unset = UNSET,

) -> Response[Error | Upload]:
    """ Upload a file to order with (one request, or the creation of a resumable tus upload)

     One request: the file's own bytes are the body, of any Content-Type (the service goes by the bytes,
    never by the type or a name), without a `Tus-Resumable` header and without a Content-Encoding; the
    answer is 201 with the upload (`url`, `size`, `expires_at`) and `Location`. E.g. `curl --data-binary
    @talk.mp3 -H 'Authorization: Bearer <api_token>' https://orders.example.com/api/v4/uploads`.

    Resumable, for large files ([tus 1.0 creation](https://tus.io/protocols/resumable-upload#creation)):
    the same POST with `Tus-Resumable: 1.0.0` and `Upload-Length: <bytes>` (or `Upload-Defer-Length:
    1`), optionally `Upload-Metadata` (`filename <base64>`), and no body (or its first bytes as
    `application/offset+octet-stream`) creates an upload: 201 with no body, its URL in `Location` (also
    its `url` to order with once complete) and `Upload-Expires`; then `PATCH /api/v4/uploads/{id}` sends
    the bytes. An `Upload-Length` over `Tus-Max-Size` is a 413 before a byte is stored.

    Args:
        body (File | Unset):
        body (File | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Upload]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body:    File  |     File  | Unset = UNSET,

) -> Error | Upload | None:
    """ Upload a file to order with (one request, or the creation of a resumable tus upload)

     One request: the file's own bytes are the body, of any Content-Type (the service goes by the bytes,
    never by the type or a name), without a `Tus-Resumable` header and without a Content-Encoding; the
    answer is 201 with the upload (`url`, `size`, `expires_at`) and `Location`. E.g. `curl --data-binary
    @talk.mp3 -H 'Authorization: Bearer <api_token>' https://orders.example.com/api/v4/uploads`.

    Resumable, for large files ([tus 1.0 creation](https://tus.io/protocols/resumable-upload#creation)):
    the same POST with `Tus-Resumable: 1.0.0` and `Upload-Length: <bytes>` (or `Upload-Defer-Length:
    1`), optionally `Upload-Metadata` (`filename <base64>`), and no body (or its first bytes as
    `application/offset+octet-stream`) creates an upload: 201 with no body, its URL in `Location` (also
    its `url` to order with once complete) and `Upload-Expires`; then `PATCH /api/v4/uploads/{id}` sends
    the bytes. An `Upload-Length` over `Tus-Max-Size` is a 413 before a byte is stored.

    Args:
        body (File | Unset):
        body (File | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Upload
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
