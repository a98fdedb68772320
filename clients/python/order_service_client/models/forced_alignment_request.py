from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.language_set_fa import LanguageSetFA
from ..models.mode import Mode
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ForcedAlignmentRequest")



@_attrs_define
class ForcedAlignmentRequest:
    """ 
        Attributes:
            mode (Mode):
            api_token (str): the account API token
            audio_url (str): an http or https URL of the file, which the service fetches; or the `url` that `POST
                /api/v4/uploads` answered for a file of this account (an upload's URL), read from the service's own store.
                Either is measured by its bytes, never by its name or type; an upload that is unknown, another account's,
                unfinished, expired or deleted is refused naming this field, before any charge
            transcription_url (str): an http or https URL of the file, which the service fetches; or the `url` that `POST
                /api/v4/uploads` answered for a file of this account (an upload's URL), read from the service's own store.
                Either is measured by its bytes, never by its name or type; an upload that is unknown, another account's,
                unfinished, expired or deleted is refused naming this field, before any charge
            language (LanguageSetFA):
            idempotency_key (str | Unset): retries with the same key get the first answer; a live order is placed once (also
                the Idempotency-Key header)
            delete_after_seconds (int | Unset): the order's data (its media, results, texts, URLs, comment and vocabulary)
                is deleted this many seconds after the order is finished, refunded or canceled; the record stays for the bill
                with deleted_at. Default: the account's rule (Settings: Delete orders' data after), else never
            vocabulary (list[str] | str | Unset): Terms of the recording or text (names, places, product words): a list, or
                one text separated by commas or new lines; up to 200 terms of up to 50 characters, each kept in Unicode NFC,
                repeats left out. Control, format and invisible characters (bidi controls, zero-width and tag characters) are
                refused; ZWJ and ZWNJ are taken inside a word they shape. They steer the machine and are shown to the people;
                they do not change the price.
            callback_url (str | Unset): an http or https URL
            additional_review (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            auto_retranscribe (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            captions (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            comment (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            from_ (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            number_of_speakers (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            strict (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            text_format (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            till (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            timestamping (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            translate_from (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            translate_to (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            turnaround_time (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            url (Any | Unset): a parameter of another v4 operation: accepted and ignored here
     """

    mode: Mode
    api_token: str
    audio_url: str
    transcription_url: str
    language: LanguageSetFA
    idempotency_key: str | Unset = UNSET
    delete_after_seconds: int | Unset = UNSET
    vocabulary: list[str] | str | Unset = UNSET
    callback_url: str | Unset = UNSET
    additional_review: Any | Unset = UNSET
    auto_retranscribe: Any | Unset = UNSET
    captions: Any | Unset = UNSET
    comment: Any | Unset = UNSET
    from_: Any | Unset = UNSET
    number_of_speakers: Any | Unset = UNSET
    strict: Any | Unset = UNSET
    text_format: Any | Unset = UNSET
    till: Any | Unset = UNSET
    timestamping: Any | Unset = UNSET
    translate_from: Any | Unset = UNSET
    translate_to: Any | Unset = UNSET
    turnaround_time: Any | Unset = UNSET
    url: Any | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        mode = self.mode.value

        api_token = self.api_token

        audio_url = self.audio_url

        transcription_url = self.transcription_url

        language = self.language.value

        idempotency_key = self.idempotency_key

        delete_after_seconds = self.delete_after_seconds

        vocabulary: list[str] | str | Unset
        if isinstance(self.vocabulary, Unset):
            vocabulary = UNSET
        elif isinstance(self.vocabulary, list):
            vocabulary = self.vocabulary


        else:
            vocabulary = self.vocabulary

        callback_url = self.callback_url

        additional_review = self.additional_review

        auto_retranscribe = self.auto_retranscribe

        captions = self.captions

        comment = self.comment

        from_ = self.from_

        number_of_speakers = self.number_of_speakers

        strict = self.strict

        text_format = self.text_format

        till = self.till

        timestamping = self.timestamping

        translate_from = self.translate_from

        translate_to = self.translate_to

        turnaround_time = self.turnaround_time

        url = self.url


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "mode": mode,
            "api_token": api_token,
            "audio_url": audio_url,
            "transcription_url": transcription_url,
            "language": language,
        })
        if idempotency_key is not UNSET:
            field_dict["idempotency_key"] = idempotency_key
        if delete_after_seconds is not UNSET:
            field_dict["delete_after_seconds"] = delete_after_seconds
        if vocabulary is not UNSET:
            field_dict["vocabulary"] = vocabulary
        if callback_url is not UNSET:
            field_dict["callback_url"] = callback_url
        if additional_review is not UNSET:
            field_dict["additional_review"] = additional_review
        if auto_retranscribe is not UNSET:
            field_dict["auto_retranscribe"] = auto_retranscribe
        if captions is not UNSET:
            field_dict["captions"] = captions
        if comment is not UNSET:
            field_dict["comment"] = comment
        if from_ is not UNSET:
            field_dict["from"] = from_
        if number_of_speakers is not UNSET:
            field_dict["number_of_speakers"] = number_of_speakers
        if strict is not UNSET:
            field_dict["strict"] = strict
        if text_format is not UNSET:
            field_dict["text_format"] = text_format
        if till is not UNSET:
            field_dict["till"] = till
        if timestamping is not UNSET:
            field_dict["timestamping"] = timestamping
        if translate_from is not UNSET:
            field_dict["translate_from"] = translate_from
        if translate_to is not UNSET:
            field_dict["translate_to"] = translate_to
        if turnaround_time is not UNSET:
            field_dict["turnaround_time"] = turnaround_time
        if url is not UNSET:
            field_dict["url"] = url

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        mode = Mode(d.pop("mode"))




        api_token = d.pop("api_token")

        audio_url = d.pop("audio_url")

        transcription_url = d.pop("transcription_url")

        language = LanguageSetFA(d.pop("language"))




        idempotency_key = d.pop("idempotency_key", UNSET)

        delete_after_seconds = d.pop("delete_after_seconds", UNSET)

        def _parse_vocabulary(data: object) -> list[str] | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                vocabulary_type_1 = cast(list[str], data)

                return vocabulary_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | str | Unset, data)

        vocabulary = _parse_vocabulary(d.pop("vocabulary", UNSET))


        callback_url = d.pop("callback_url", UNSET)

        additional_review = d.pop("additional_review", UNSET)

        auto_retranscribe = d.pop("auto_retranscribe", UNSET)

        captions = d.pop("captions", UNSET)

        comment = d.pop("comment", UNSET)

        from_ = d.pop("from", UNSET)

        number_of_speakers = d.pop("number_of_speakers", UNSET)

        strict = d.pop("strict", UNSET)

        text_format = d.pop("text_format", UNSET)

        till = d.pop("till", UNSET)

        timestamping = d.pop("timestamping", UNSET)

        translate_from = d.pop("translate_from", UNSET)

        translate_to = d.pop("translate_to", UNSET)

        turnaround_time = d.pop("turnaround_time", UNSET)

        url = d.pop("url", UNSET)

        forced_alignment_request = cls(
            mode=mode,
            api_token=api_token,
            audio_url=audio_url,
            transcription_url=transcription_url,
            language=language,
            idempotency_key=idempotency_key,
            delete_after_seconds=delete_after_seconds,
            vocabulary=vocabulary,
            callback_url=callback_url,
            additional_review=additional_review,
            auto_retranscribe=auto_retranscribe,
            captions=captions,
            comment=comment,
            from_=from_,
            number_of_speakers=number_of_speakers,
            strict=strict,
            text_format=text_format,
            till=till,
            timestamping=timestamping,
            translate_from=translate_from,
            translate_to=translate_to,
            turnaround_time=turnaround_time,
            url=url,
        )

        return forced_alignment_request

