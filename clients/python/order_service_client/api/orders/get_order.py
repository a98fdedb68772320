from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.get_order_mode import GetOrderMode
from ...models.order import Order
from typing import cast



def _get_kwargs(
    id: str,
    *,
    api_token: str,
    mode: GetOrderMode,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["api_token"] = api_token

    json_mode = mode.value
    params["mode"] = json_mode


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v4/orders/{id}".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Order | None:
    if response.status_code == 200:
        response_200 = Order.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Order]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    api_token: str,
    mode: GetOrderMode,

) -> Response[Error | Order]:
    """ One order (mode=test: a sample order with this id)

    Args:
        id (str): order id
        api_token (str): the account API token
        mode (GetOrderMode):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Order]
     """


    kwargs = _get_kwargs(
        id=id,
api_token=api_token,
mode=mode,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    api_token: str,
    mode: GetOrderMode,

) -> Error | Order | None:
    """ One order (mode=test: a sample order with this id)

    Args:
        id (str): order id
        api_token (str): the account API token
        mode (GetOrderMode):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Order
     """


    return sync_detailed(
        id=id,
client=client,
api_token=api_token,
mode=mode,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    api_token: str,
    mode: GetOrderMode,

) -> Response[Error | Order]:
    """ One order (mode=test: a sample order with this id)

    Args:
        id (str): order id
        api_token (str): the account API token
        mode (GetOrderMode):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Order]
     """


    kwargs = _get_kwargs(
        id=id,
api_token=api_token,
mode=mode,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    api_token: str,
    mode: GetOrderMode,

) -> Error | Order | None:
    """ One order (mode=test: a sample order with this id)

    Args:
        id (str): order id
        api_token (str): the account API token
        mode (GetOrderMode):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Order
     """


    return (await asyncio_detailed(
        id=id,
client=client,
api_token=api_token,
mode=mode,

    )).parsed
