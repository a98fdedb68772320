from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.list_orders_mode import ListOrdersMode
from ...models.order_list import OrderList
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    api_token: str,
    mode: ListOrdersMode,
    cursor: str | Unset = UNSET,
    per_page: int | Unset = 20,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["api_token"] = api_token

    json_mode = mode.value
    params["mode"] = json_mode

    params["cursor"] = cursor

    params["per_page"] = per_page


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v4/orders",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | OrderList | None:
    if response.status_code == 200:
        response_200 = OrderList.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | OrderList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    api_token: str,
    mode: ListOrdersMode,
    cursor: str | Unset = UNSET,
    per_page: int | Unset = 20,

) -> Response[Error | OrderList]:
    """ List orders, newest first (mode=test: sample orders)

    Args:
        api_token (str): the account API token
        mode (ListOrdersMode):
        cursor (str | Unset):
        per_page (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | OrderList]
     """


    kwargs = _get_kwargs(
        api_token=api_token,
mode=mode,
cursor=cursor,
per_page=per_page,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,
    api_token: str,
    mode: ListOrdersMode,
    cursor: str | Unset = UNSET,
    per_page: int | Unset = 20,

) -> Error | OrderList | None:
    """ List orders, newest first (mode=test: sample orders)

    Args:
        api_token (str): the account API token
        mode (ListOrdersMode):
        cursor (str | Unset):
        per_page (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | OrderList
     """


    return sync_detailed(
        client=client,
api_token=api_token,
mode=mode,
cursor=cursor,
per_page=per_page,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    api_token: str,
    mode: ListOrdersMode,
    cursor: str | Unset = UNSET,
    per_page: int | Unset = 20,

) -> Response[Error | OrderList]:
    """ List orders, newest first (mode=test: sample orders)

    Args:
        api_token (str): the account API token
        mode (ListOrdersMode):
        cursor (str | Unset):
        per_page (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | OrderList]
     """


    kwargs = _get_kwargs(
        api_token=api_token,
mode=mode,
cursor=cursor,
per_page=per_page,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    api_token: str,
    mode: ListOrdersMode,
    cursor: str | Unset = UNSET,
    per_page: int | Unset = 20,

) -> Error | OrderList | None:
    """ List orders, newest first (mode=test: sample orders)

    Args:
        api_token (str): the account API token
        mode (ListOrdersMode):
        cursor (str | Unset):
        per_page (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | OrderList
     """


    return (await asyncio_detailed(
        client=client,
api_token=api_token,
mode=mode,
cursor=cursor,
per_page=per_page,

    )).parsed
