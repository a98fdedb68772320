from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import Literal, cast






T = TypeVar("T", bound="TranscriptionProofreadingCallbackType2")



@_attrs_define
class TranscriptionProofreadingCallbackType2:
    """ sent on: canceled

        Attributes:
            mode (Literal['live']):
            order_id (str):
            status (Literal['canceled']):
            was_retranscribed (Literal['false']):
            retranscribed_order_id (Literal['']):
            proofread_transcription_url (Literal['']):
     """

    mode: Literal['live']
    order_id: str
    status: Literal['canceled']
    was_retranscribed: Literal['false']
    retranscribed_order_id: Literal['']
    proofread_transcription_url: Literal['']
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        mode = self.mode

        order_id = self.order_id

        status = self.status

        was_retranscribed = self.was_retranscribed

        retranscribed_order_id = self.retranscribed_order_id

        proofread_transcription_url = self.proofread_transcription_url


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "mode": mode,
            "order_id": order_id,
            "status": status,
            "was_retranscribed": was_retranscribed,
            "retranscribed_order_id": retranscribed_order_id,
            "proofread_transcription_url": proofread_transcription_url,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        mode = cast(Literal['live'] , d.pop("mode"))
        if mode != 'live':
            raise ValueError(f"mode must match const 'live', got '{mode}'")

        order_id = d.pop("order_id")

        status = cast(Literal['canceled'] , d.pop("status"))
        if status != 'canceled':
            raise ValueError(f"status must match const 'canceled', got '{status}'")

        was_retranscribed = cast(Literal['false'] , d.pop("was_retranscribed"))
        if was_retranscribed != 'false':
            raise ValueError(f"was_retranscribed must match const 'false', got '{was_retranscribed}'")

        retranscribed_order_id = cast(Literal[''] , d.pop("retranscribed_order_id"))
        if retranscribed_order_id != '':
            raise ValueError(f"retranscribed_order_id must match const '', got '{retranscribed_order_id}'")

        proofread_transcription_url = cast(Literal[''] , d.pop("proofread_transcription_url"))
        if proofread_transcription_url != '':
            raise ValueError(f"proofread_transcription_url must match const '', got '{proofread_transcription_url}'")

        transcription_proofreading_callback_type_2 = cls(
            mode=mode,
            order_id=order_id,
            status=status,
            was_retranscribed=was_retranscribed,
            retranscribed_order_id=retranscribed_order_id,
            proofread_transcription_url=proofread_transcription_url,
        )


        transcription_proofreading_callback_type_2.additional_properties = d
        return transcription_proofreading_callback_type_2

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
