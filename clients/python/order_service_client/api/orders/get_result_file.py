from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.get_result_file_format import GetResultFileFormat
from ...models.get_result_file_kind import GetResultFileKind
from ...models.get_result_file_mode import GetResultFileMode
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    kind: GetResultFileKind,
    *,
    api_token: str | Unset = UNSET,
    mode: GetResultFileMode | Unset = UNSET,
    format_: GetResultFileFormat | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["api_token"] = api_token

    json_mode: str | Unset = UNSET
    if not isinstance(mode, Unset):
        json_mode = mode.value

    params["mode"] = json_mode

    json_format_: str | Unset = UNSET
    if not isinstance(format_, Unset):
        json_format_ = format_.value

    params["format"] = json_format_


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v4/orders/{id}/files/{kind}".format(id=quote(str(id), safe=""),kind=quote(str(kind), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Error | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Error | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    kind: GetResultFileKind,
    *,
    client: AuthenticatedClient | Client,
    api_token: str | Unset = UNSET,
    mode: GetResultFileMode | Unset = UNSET,
    format_: GetResultFileFormat | Unset = UNSET,

) -> Response[Any | Error | str]:
    """ A finished order's result file, rendered in a format

    Args:
        id (str): order id
        kind (GetResultFileKind):
        api_token (str | Unset): the account API token
        mode (GetResultFileMode | Unset):
        format_ (GetResultFileFormat | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | str]
     """


    kwargs = _get_kwargs(
        id=id,
kind=kind,
api_token=api_token,
mode=mode,
format_=format_,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    kind: GetResultFileKind,
    *,
    client: AuthenticatedClient | Client,
    api_token: str | Unset = UNSET,
    mode: GetResultFileMode | Unset = UNSET,
    format_: GetResultFileFormat | Unset = UNSET,

) -> Any | Error | str | None:
    """ A finished order's result file, rendered in a format

    Args:
        id (str): order id
        kind (GetResultFileKind):
        api_token (str | Unset): the account API token
        mode (GetResultFileMode | Unset):
        format_ (GetResultFileFormat | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | str
     """


    return sync_detailed(
        id=id,
kind=kind,
client=client,
api_token=api_token,
mode=mode,
format_=format_,

    ).parsed

async def asyncio_detailed(
    id: str,
    kind: GetResultFileKind,
    *,
    client: AuthenticatedClient | Client,
    api_token: str | Unset = UNSET,
    mode: GetResultFileMode | Unset = UNSET,
    format_: GetResultFileFormat | Unset = UNSET,

) -> Response[Any | Error | str]:
    """ A finished order's result file, rendered in a format

    Args:
        id (str): order id
        kind (GetResultFileKind):
        api_token (str | Unset): the account API token
        mode (GetResultFileMode | Unset):
        format_ (GetResultFileFormat | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | str]
     """


    kwargs = _get_kwargs(
        id=id,
kind=kind,
api_token=api_token,
mode=mode,
format_=format_,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    kind: GetResultFileKind,
    *,
    client: AuthenticatedClient | Client,
    api_token: str | Unset = UNSET,
    mode: GetResultFileMode | Unset = UNSET,
    format_: GetResultFileFormat | Unset = UNSET,

) -> Any | Error | str | None:
    """ A finished order's result file, rendered in a format

    Args:
        id (str): order id
        kind (GetResultFileKind):
        api_token (str | Unset): the account API token
        mode (GetResultFileMode | Unset):
        format_ (GetResultFileFormat | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | str
     """


    return (await asyncio_detailed(
        id=id,
kind=kind,
client=client,
api_token=api_token,
mode=mode,
format_=format_,

    )).parsed
