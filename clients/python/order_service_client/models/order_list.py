from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.order_list_orders_item import OrderListOrdersItem





T = TypeVar("T", bound="OrderList")



@_attrs_define
class OrderList:
    """ 
        Attributes:
            orders (list[OrderListOrdersItem]):
            next_page_url (None | str): the next page, fetchable as given (it carries api_token and mode, as result URLs
                do); null on the last page
     """

    orders: list[OrderListOrdersItem]
    next_page_url: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.order_list_orders_item import OrderListOrdersItem # noqa: PLC0415
        orders = []
        for orders_item_data in self.orders:
            orders_item = orders_item_data.to_dict()
            orders.append(orders_item)



        next_page_url: None | str
        next_page_url = self.next_page_url


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "orders": orders,
            "next_page_url": next_page_url,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.order_list_orders_item import OrderListOrdersItem # noqa: PLC0415
        d = dict(src_dict)
        orders = []
        _orders = d.pop("orders")
        for orders_item_data in (_orders):
            orders_item = OrderListOrdersItem.from_dict(orders_item_data)



            orders.append(orders_item)


        def _parse_next_page_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_page_url = _parse_next_page_url(d.pop("next_page_url"))


        order_list = cls(
            orders=orders,
            next_page_url=next_page_url,
        )


        order_list.additional_properties = d
        return order_list

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
