from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.languages import Languages
from ...models.list_languages_product import ListLanguagesProduct
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    product: ListLanguagesProduct | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_product: str | Unset = UNSET
    if not isinstance(product, Unset):
        json_product = product.value

    params["product"] = json_product


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v4/languages",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Languages | None:
    if response.status_code == 200:
        response_200 = Languages.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Languages]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    product: ListLanguagesProduct | Unset = UNSET,

) -> Response[Error | Languages]:
    """ Supported languages per product

    Args:
        product (ListLanguagesProduct | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Languages]
     """


    kwargs = _get_kwargs(
        product=product,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,
    product: ListLanguagesProduct | Unset = UNSET,

) -> Error | Languages | None:
    """ Supported languages per product

    Args:
        product (ListLanguagesProduct | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Languages
     """


    return sync_detailed(
        client=client,
product=product,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    product: ListLanguagesProduct | Unset = UNSET,

) -> Response[Error | Languages]:
    """ Supported languages per product

    Args:
        product (ListLanguagesProduct | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Languages]
     """


    kwargs = _get_kwargs(
        product=product,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    product: ListLanguagesProduct | Unset = UNSET,

) -> Error | Languages | None:
    """ Supported languages per product

    Args:
        product (ListLanguagesProduct | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Languages
     """


    return (await asyncio_detailed(
        client=client,
product=product,

    )).parsed
