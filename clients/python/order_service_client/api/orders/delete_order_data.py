from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.delete_order_data_mode import DeleteOrderDataMode
from ...models.error import Error
from ...models.order_deleted import OrderDeleted
from typing import cast



def _get_kwargs(
    id: str,
    *,
    api_token: str,
    mode: DeleteOrderDataMode,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["api_token"] = api_token

    json_mode = mode.value
    params["mode"] = json_mode


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/api/v4/orders/{id}".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | OrderDeleted | None:
    if response.status_code == 200:
        response_200 = OrderDeleted.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())



        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | OrderDeleted]:
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
    mode: DeleteOrderDataMode,

) -> Response[Error | OrderDeleted]:
    """ Delete a settled order's data; its record stays for the bill

     Deletes the order's media, drafts, work texts, result files and renderings, share link, URLs, file
    names, comment and vocabulary, and its workflow's history; the record stays (product, seconds or
    words, price, dates, status) with deleted_at, and its result URLs answer 410. An order still open (a
    quality check's window, a callback being retried) is closed first: no further callback is sent, and
    `note` says so. Deleting again answers the same. Only live orders (mode=live), once finished,
    refunded or canceled.

    Args:
        id (str): order id
        api_token (str): the account API token
        mode (DeleteOrderDataMode):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | OrderDeleted]
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
    mode: DeleteOrderDataMode,

) -> Error | OrderDeleted | None:
    """ Delete a settled order's data; its record stays for the bill

     Deletes the order's media, drafts, work texts, result files and renderings, share link, URLs, file
    names, comment and vocabulary, and its workflow's history; the record stays (product, seconds or
    words, price, dates, status) with deleted_at, and its result URLs answer 410. An order still open (a
    quality check's window, a callback being retried) is closed first: no further callback is sent, and
    `note` says so. Deleting again answers the same. Only live orders (mode=live), once finished,
    refunded or canceled.

    Args:
        id (str): order id
        api_token (str): the account API token
        mode (DeleteOrderDataMode):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | OrderDeleted
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
    mode: DeleteOrderDataMode,

) -> Response[Error | OrderDeleted]:
    """ Delete a settled order's data; its record stays for the bill

     Deletes the order's media, drafts, work texts, result files and renderings, share link, URLs, file
    names, comment and vocabulary, and its workflow's history; the record stays (product, seconds or
    words, price, dates, status) with deleted_at, and its result URLs answer 410. An order still open (a
    quality check's window, a callback being retried) is closed first: no further callback is sent, and
    `note` says so. Deleting again answers the same. Only live orders (mode=live), once finished,
    refunded or canceled.

    Args:
        id (str): order id
        api_token (str): the account API token
        mode (DeleteOrderDataMode):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | OrderDeleted]
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
    mode: DeleteOrderDataMode,

) -> Error | OrderDeleted | None:
    """ Delete a settled order's data; its record stays for the bill

     Deletes the order's media, drafts, work texts, result files and renderings, share link, URLs, file
    names, comment and vocabulary, and its workflow's history; the record stays (product, seconds or
    words, price, dates, status) with deleted_at, and its result URLs answer 410. An order still open (a
    quality check's window, a callback being retried) is closed first: no further callback is sent, and
    `note` says so. Deleting again answers the same. Only live orders (mode=live), once finished,
    refunded or canceled.

    Args:
        id (str): order id
        api_token (str): the account API token
        mode (DeleteOrderDataMode):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | OrderDeleted
     """


    return (await asyncio_detailed(
        id=id,
client=client,
api_token=api_token,
mode=mode,

    )).parsed
