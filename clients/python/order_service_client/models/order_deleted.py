from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.order_deleted_data import OrderDeletedData





T = TypeVar("T", bound="OrderDeleted")



@_attrs_define
class OrderDeleted:
    """ 
        Attributes:
            data (OrderDeletedData): Fields beyond these are the product's (its parameters and result URLs, null until
                finished).
            note (str | Unset): present when the order was still open and was closed: no further callback is sent
     """

    data: OrderDeletedData
    note: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.order_deleted_data import OrderDeletedData # noqa: PLC0415
        data = self.data.to_dict()

        note = self.note


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "data": data,
        })
        if note is not UNSET:
            field_dict["note"] = note

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.order_deleted_data import OrderDeletedData # noqa: PLC0415
        d = dict(src_dict)
        data = OrderDeletedData.from_dict(d.pop("data"))




        note = d.pop("note", UNSET)

        order_deleted = cls(
            data=data,
            note=note,
        )


        order_deleted.additional_properties = d
        return order_deleted

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
