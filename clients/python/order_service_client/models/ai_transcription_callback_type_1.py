from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import Literal, cast






T = TypeVar("T", bound="AiTranscriptionCallbackType1")



@_attrs_define
class AiTranscriptionCallbackType1:
    """ sent on: refunded

        Attributes:
            mode (Literal['live']):
            order_id (str):
            status (Literal['refunded']):
            language (str):
            transcription_url (Literal['']):
            captions_url (Literal['']):
            delivery_estimate (str | Unset): only on an AI order handed to a person: its new delivery estimate
     """

    mode: Literal['live']
    order_id: str
    status: Literal['refunded']
    language: str
    transcription_url: Literal['']
    captions_url: Literal['']
    delivery_estimate: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        mode = self.mode

        order_id = self.order_id

        status = self.status

        language = self.language

        transcription_url = self.transcription_url

        captions_url = self.captions_url

        delivery_estimate = self.delivery_estimate


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "mode": mode,
            "order_id": order_id,
            "status": status,
            "language": language,
            "transcription_url": transcription_url,
            "captions_url": captions_url,
        })
        if delivery_estimate is not UNSET:
            field_dict["delivery_estimate"] = delivery_estimate

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        mode = cast(Literal['live'] , d.pop("mode"))
        if mode != 'live':
            raise ValueError(f"mode must match const 'live', got '{mode}'")

        order_id = d.pop("order_id")

        status = cast(Literal['refunded'] , d.pop("status"))
        if status != 'refunded':
            raise ValueError(f"status must match const 'refunded', got '{status}'")

        language = d.pop("language")

        transcription_url = cast(Literal[''] , d.pop("transcription_url"))
        if transcription_url != '':
            raise ValueError(f"transcription_url must match const '', got '{transcription_url}'")

        captions_url = cast(Literal[''] , d.pop("captions_url"))
        if captions_url != '':
            raise ValueError(f"captions_url must match const '', got '{captions_url}'")

        delivery_estimate = d.pop("delivery_estimate", UNSET)

        ai_transcription_callback_type_1 = cls(
            mode=mode,
            order_id=order_id,
            status=status,
            language=language,
            transcription_url=transcription_url,
            captions_url=captions_url,
            delivery_estimate=delivery_estimate,
        )


        ai_transcription_callback_type_1.additional_properties = d
        return ai_transcription_callback_type_1

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
