from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.order_data_status import OrderDataStatus
from ..models.order_data_type import OrderDataType
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="OrderData")



@_attrs_define
class OrderData:
    """ Fields beyond these are the product's (its parameters and result URLs, null until finished).

        Attributes:
            id (int):
            type_ (OrderDataType):
            status (OrderDataStatus):
            price (float): US dollars
            paid_at (None | str):
            delivery_estimate (None | str):
            finished_at (None | str):
            comment (str):
            seconds (int):
            words (int):
            vocabulary (list[str] | Unset): present only when the order named terms (its vocabulary): the terms as kept,
                each trimmed, repeats left out
            delete_after_seconds (int | Unset): present only when the order's data is to be deleted after it settles: how
                many seconds after
            delete_at (None | str | Unset): with delete_after_seconds: when its data is deleted (null until the order
                settles)
            deleted_at (str | Unset): present once the order's data was deleted: its result URLs are null, its comment empty
            media_note (str | Unset): present only when the media fetched for the work was longer than the seconds paid for
                (it changed after the order was placed, or its header understated it): only the paid part is worked, and this
                says so
     """

    id: int
    type_: OrderDataType
    status: OrderDataStatus
    price: float
    paid_at: None | str
    delivery_estimate: None | str
    finished_at: None | str
    comment: str
    seconds: int
    words: int
    vocabulary: list[str] | Unset = UNSET
    delete_after_seconds: int | Unset = UNSET
    delete_at: None | str | Unset = UNSET
    deleted_at: str | Unset = UNSET
    media_note: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_.value

        status = self.status.value

        price = self.price

        paid_at: None | str
        paid_at = self.paid_at

        delivery_estimate: None | str
        delivery_estimate = self.delivery_estimate

        finished_at: None | str
        finished_at = self.finished_at

        comment = self.comment

        seconds = self.seconds

        words = self.words

        vocabulary: list[str] | Unset = UNSET
        if not isinstance(self.vocabulary, Unset):
            vocabulary = self.vocabulary



        delete_after_seconds = self.delete_after_seconds

        delete_at: None | str | Unset
        if isinstance(self.delete_at, Unset):
            delete_at = UNSET
        else:
            delete_at = self.delete_at

        deleted_at = self.deleted_at

        media_note = self.media_note


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "type": type_,
            "status": status,
            "price": price,
            "paid_at": paid_at,
            "delivery_estimate": delivery_estimate,
            "finished_at": finished_at,
            "comment": comment,
            "seconds": seconds,
            "words": words,
        })
        if vocabulary is not UNSET:
            field_dict["vocabulary"] = vocabulary
        if delete_after_seconds is not UNSET:
            field_dict["delete_after_seconds"] = delete_after_seconds
        if delete_at is not UNSET:
            field_dict["delete_at"] = delete_at
        if deleted_at is not UNSET:
            field_dict["deleted_at"] = deleted_at
        if media_note is not UNSET:
            field_dict["media_note"] = media_note

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        type_ = OrderDataType(d.pop("type"))




        status = OrderDataStatus(d.pop("status"))




        price = d.pop("price")

        def _parse_paid_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        paid_at = _parse_paid_at(d.pop("paid_at"))


        def _parse_delivery_estimate(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        delivery_estimate = _parse_delivery_estimate(d.pop("delivery_estimate"))


        def _parse_finished_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))


        comment = d.pop("comment")

        seconds = d.pop("seconds")

        words = d.pop("words")

        vocabulary = cast(list[str], d.pop("vocabulary", UNSET))


        delete_after_seconds = d.pop("delete_after_seconds", UNSET)

        def _parse_delete_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        delete_at = _parse_delete_at(d.pop("delete_at", UNSET))


        deleted_at = d.pop("deleted_at", UNSET)

        media_note = d.pop("media_note", UNSET)

        order_data = cls(
            id=id,
            type_=type_,
            status=status,
            price=price,
            paid_at=paid_at,
            delivery_estimate=delivery_estimate,
            finished_at=finished_at,
            comment=comment,
            seconds=seconds,
            words=words,
            vocabulary=vocabulary,
            delete_after_seconds=delete_after_seconds,
            delete_at=delete_at,
            deleted_at=deleted_at,
            media_note=media_note,
        )


        order_data.additional_properties = d
        return order_data

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
