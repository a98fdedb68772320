from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import Literal, cast






T = TypeVar("T", bound="SubtitlesCallbackType1")



@_attrs_define
class SubtitlesCallbackType1:
    """ sent on: refunded

        Attributes:
            mode (Literal['live']):
            status (Literal['refunded']):
            order_id (str):
     """

    mode: Literal['live']
    status: Literal['refunded']
    order_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        mode = self.mode

        status = self.status

        order_id = self.order_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "mode": mode,
            "status": status,
            "order_id": order_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        mode = cast(Literal['live'] , d.pop("mode"))
        if mode != 'live':
            raise ValueError(f"mode must match const 'live', got '{mode}'")

        status = cast(Literal['refunded'] , d.pop("status"))
        if status != 'refunded':
            raise ValueError(f"status must match const 'refunded', got '{status}'")

        order_id = d.pop("order_id")

        subtitles_callback_type_1 = cls(
            mode=mode,
            status=status,
            order_id=order_id,
        )


        subtitles_callback_type_1.additional_properties = d
        return subtitles_callback_type_1

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
