from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.tus_resumable import TusResumable
from typing import cast



def _get_kwargs(
    id: str,
    *,
    tus_resumable: TusResumable,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Tus-Resumable"] = str(tus_resumable)




    

    

    _kwargs: dict[str, Any] = {
        "method": "head",
        "url": "/api/v4/uploads/{id}".format(id=quote(str(id), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Error | None:
    if response.status_code == 200:
        response_200 = cast(Any, None)
        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())



        return response_404

    if response.status_code == 410:
        response_410 = cast(Any, None)
        return response_410

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
    tus_resumable: TusResumable,

) -> Response[Any | Error]:
    """ tus: how much of an upload the service holds, to resume from there

     tus 1.0 HEAD (https://tus.io/protocols/resumable-upload#head): `Upload-Offset` is where the next
    PATCH starts.

    Args:
        id (str):
        tus_resumable (TusResumable): the tus protocol version

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error]
     """


    kwargs = _get_kwargs(
        id=id,
tus_resumable=tus_resumable,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    tus_resumable: TusResumable,

) -> Any | Error | None:
    """ tus: how much of an upload the service holds, to resume from there

     tus 1.0 HEAD (https://tus.io/protocols/resumable-upload#head): `Upload-Offset` is where the next
    PATCH starts.

    Args:
        id (str):
        tus_resumable (TusResumable): the tus protocol version

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error
     """


    return sync_detailed(
        id=id,
client=client,
tus_resumable=tus_resumable,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    tus_resumable: TusResumable,

) -> Response[Any | Error]:
    """ tus: how much of an upload the service holds, to resume from there

     tus 1.0 HEAD (https://tus.io/protocols/resumable-upload#head): `Upload-Offset` is where the next
    PATCH starts.

    Args:
        id (str):
        tus_resumable (TusResumable): the tus protocol version

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error]
     """


    kwargs = _get_kwargs(
        id=id,
tus_resumable=tus_resumable,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    tus_resumable: TusResumable,

) -> Any | Error | None:
    """ tus: how much of an upload the service holds, to resume from there

     tus 1.0 HEAD (https://tus.io/protocols/resumable-upload#head): `Upload-Offset` is where the next
    PATCH starts.

    Args:
        id (str):
        tus_resumable (TusResumable): the tus protocol version

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error
     """


    return (await asyncio_detailed(
        id=id,
client=client,
tus_resumable=tus_resumable,

    )).parsed
