from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.mode import Mode
from ..types import UNSET, Unset
from typing import Literal, cast






T = TypeVar("T", bound="HumanOcrCreated")



@_attrs_define
class HumanOcrCreated:
    """ 
        Attributes:
            mode (Mode):
            status (Literal['success']):
            words (int): words priced
            order_total (float): US dollars
            in_wallet (float): US dollars
            delivery_estimate (str): UTC time, YYYY-MM-DD HH:MM:SS
            order_id (int | Unset): live orders only
     """

    mode: Mode
    status: Literal['success']
    words: int
    order_total: float
    in_wallet: float
    delivery_estimate: str
    order_id: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        mode = self.mode.value

        status = self.status

        words = self.words

        order_total = self.order_total

        in_wallet = self.in_wallet

        delivery_estimate = self.delivery_estimate

        order_id = self.order_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "mode": mode,
            "status": status,
            "words": words,
            "order_total": order_total,
            "in_wallet": in_wallet,
            "delivery_estimate": delivery_estimate,
        })
        if order_id is not UNSET:
            field_dict["order_id"] = order_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        mode = Mode(d.pop("mode"))




        status = cast(Literal['success'] , d.pop("status"))
        if status != 'success':
            raise ValueError(f"status must match const 'success', got '{status}'")

        words = d.pop("words")

        order_total = d.pop("order_total")

        in_wallet = d.pop("in_wallet")

        delivery_estimate = d.pop("delivery_estimate")

        order_id = d.pop("order_id", UNSET)

        human_ocr_created = cls(
            mode=mode,
            status=status,
            words=words,
            order_total=order_total,
            in_wallet=in_wallet,
            delivery_estimate=delivery_estimate,
            order_id=order_id,
        )


        human_ocr_created.additional_properties = d
        return human_ocr_created

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
