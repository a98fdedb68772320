from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.tus_resumable import TusResumable
from ...types import File, FileTypes
from ...types import UNSET, Unset
from io import BytesIO
from typing import cast



def _get_kwargs(
    id: str,
    *,
    body: File,
    tus_resumable: TusResumable,
    upload_offset: int,
    upload_length: int | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Tus-Resumable"] = str(tus_resumable)


    headers["Upload-Offset"] = str(upload_offset)


    if not isinstance(upload_length, Unset):
        headers["Upload-Length"] = str(upload_length)




    

    

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/v4/uploads/{id}".format(id=quote(str(id), safe=""),),
    }

    _kwargs["content"] = body.payload
    headers["Content-Type"] = "application/offset+octet-stream"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Error | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = cast(Any, None)
        return response_409

    if response.status_code == 410:
        response_410 = cast(Any, None)
        return response_410

    if response.status_code == 413:
        response_413 = cast(Any, None)
        return response_413

    if response.status_code == 415:
        response_415 = cast(Any, None)
        return response_415

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: File,
    tus_resumable: TusResumable,
    upload_offset: int,
    upload_length: int | Unset = UNSET,

) -> Response[Any | Error]:
    """ tus: send bytes of an upload from its offset

     tus 1.0 PATCH (https://tus.io/protocols/resumable-upload#patch): the bytes from `Upload-Offset` on,
    as `application/offset+octet-stream`. A dropped connection loses at most this request: HEAD says
    where to go on. The last byte completes the upload; its URL can then be ordered.

    Args:
        id (str):
        tus_resumable (TusResumable): the tus protocol version
        upload_offset (int):
        upload_length (int | Unset):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,
tus_resumable=tus_resumable,
upload_offset=upload_offset,
upload_length=upload_length,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    body: File,
    tus_resumable: TusResumable,
    upload_offset: int,
    upload_length: int | Unset = UNSET,

) -> Any | Error | None:
    """ tus: send bytes of an upload from its offset

     tus 1.0 PATCH (https://tus.io/protocols/resumable-upload#patch): the bytes from `Upload-Offset` on,
    as `application/offset+octet-stream`. A dropped connection loses at most this request: HEAD says
    where to go on. The last byte completes the upload; its URL can then be ordered.

    Args:
        id (str):
        tus_resumable (TusResumable): the tus protocol version
        upload_offset (int):
        upload_length (int | Unset):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error
     """


    return sync_detailed(
        id=id,
client=client,
body=body,
tus_resumable=tus_resumable,
upload_offset=upload_offset,
upload_length=upload_length,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: File,
    tus_resumable: TusResumable,
    upload_offset: int,
    upload_length: int | Unset = UNSET,

) -> Response[Any | Error]:
    """ tus: send bytes of an upload from its offset

     tus 1.0 PATCH (https://tus.io/protocols/resumable-upload#patch): the bytes from `Upload-Offset` on,
    as `application/offset+octet-stream`. A dropped connection loses at most this request: HEAD says
    where to go on. The last byte completes the upload; its URL can then be ordered.

    Args:
        id (str):
        tus_resumable (TusResumable): the tus protocol version
        upload_offset (int):
        upload_length (int | Unset):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,
tus_resumable=tus_resumable,
upload_offset=upload_offset,
upload_length=upload_length,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: File,
    tus_resumable: TusResumable,
    upload_offset: int,
    upload_length: int | Unset = UNSET,

) -> Any | Error | None:
    """ tus: send bytes of an upload from its offset

     tus 1.0 PATCH (https://tus.io/protocols/resumable-upload#patch): the bytes from `Upload-Offset` on,
    as `application/offset+octet-stream`. A dropped connection loses at most this request: HEAD says
    where to go on. The last byte completes the upload; its URL can then be ordered.

    Args:
        id (str):
        tus_resumable (TusResumable): the tus protocol version
        upload_offset (int):
        upload_length (int | Unset):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,
tus_resumable=tus_resumable,
upload_offset=upload_offset,
upload_length=upload_length,

    )).parsed
