from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field
import json
from .. import types

from ..types import UNSET, Unset

from ..models.form_boolean import FormBoolean
from ..models.language_set_ht import LanguageSetHT
from ..models.mode import Mode
from ..models.text_format import TextFormat
from ..models.timestamping import Timestamping
from ..models.turnaround_time import TurnaroundTime
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="TranscriptionProofreadingMultipart")



@_attrs_define
class TranscriptionProofreadingMultipart:
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
            language (LanguageSetHT):
            idempotency_key (str | Unset): retries with the same key get the first answer; a live order is placed once (also
                the Idempotency-Key header)
            delete_after_seconds (str | Unset): the order's data (its media, results, texts, URLs, comment and vocabulary)
                is deleted this many seconds after the order is finished, refunded or canceled; the record stays for the bill
                with deleted_at. Default: the account's rule (Settings: Delete orders' data after), else never
            text_format (TextFormat | Unset):  Default: TextFormat.CLEAN_VERBATIM.
            timestamping (Timestamping | Unset):  Default: Timestamping.NOT_REQUIRED.
            turnaround_time (TurnaroundTime | Unset):  Default: TurnaroundTime.VALUE_3.
            captions (FormBoolean | Unset):  Default: FormBoolean.FALSE.
            auto_retranscribe (FormBoolean | Unset):  Default: FormBoolean.FALSE.
            comment (str | Unset):
            vocabulary (list[str] | str | Unset): Terms of the recording or text (names, places, product words): a list, or
                one text separated by commas or new lines; up to 200 terms of up to 50 characters, each kept in Unicode NFC,
                repeats left out. Control, format and invisible characters (bidi controls, zero-width and tag characters) are
                refused; ZWJ and ZWNJ are taken inside a word they shape. They steer the machine and are shown to the people;
                they do not change the price.
            callback_url (str | Unset): an http or https URL
            additional_review (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            from_ (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            number_of_speakers (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            strict (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            till (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            translate_from (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            translate_to (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            url (Any | Unset): a parameter of another v4 operation: accepted and ignored here
     """

    mode: Mode
    api_token: str
    audio_url: str
    transcription_url: str
    language: LanguageSetHT
    idempotency_key: str | Unset = UNSET
    delete_after_seconds: str | Unset = UNSET
    text_format: TextFormat | Unset = TextFormat.CLEAN_VERBATIM
    timestamping: Timestamping | Unset = Timestamping.NOT_REQUIRED
    turnaround_time: TurnaroundTime | Unset = TurnaroundTime.VALUE_3
    captions: FormBoolean | Unset = FormBoolean.FALSE
    auto_retranscribe: FormBoolean | Unset = FormBoolean.FALSE
    comment: str | Unset = UNSET
    vocabulary: list[str] | str | Unset = UNSET
    callback_url: str | Unset = UNSET
    additional_review: Any | Unset = UNSET
    from_: Any | Unset = UNSET
    number_of_speakers: Any | Unset = UNSET
    strict: Any | Unset = UNSET
    till: Any | Unset = UNSET
    translate_from: Any | Unset = UNSET
    translate_to: Any | Unset = UNSET
    url: Any | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        mode = self.mode.value

        api_token = self.api_token

        audio_url = self.audio_url

        transcription_url = self.transcription_url

        language = self.language.value

        idempotency_key = self.idempotency_key

        delete_after_seconds = self.delete_after_seconds

        text_format: str | Unset = UNSET
        if not isinstance(self.text_format, Unset):
            text_format = self.text_format.value


        timestamping: str | Unset = UNSET
        if not isinstance(self.timestamping, Unset):
            timestamping = self.timestamping.value


        turnaround_time: str | Unset = UNSET
        if not isinstance(self.turnaround_time, Unset):
            turnaround_time = self.turnaround_time.value


        captions: str | Unset = UNSET
        if not isinstance(self.captions, Unset):
            captions = self.captions.value


        auto_retranscribe: str | Unset = UNSET
        if not isinstance(self.auto_retranscribe, Unset):
            auto_retranscribe = self.auto_retranscribe.value


        comment = self.comment

        vocabulary: list[str] | str | Unset
        if isinstance(self.vocabulary, Unset):
            vocabulary = UNSET
        elif isinstance(self.vocabulary, list):
            vocabulary = self.vocabulary


        else:
            vocabulary = self.vocabulary

        callback_url = self.callback_url

        additional_review = self.additional_review

        from_ = self.from_

        number_of_speakers = self.number_of_speakers

        strict = self.strict

        till = self.till

        translate_from = self.translate_from

        translate_to = self.translate_to

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
        if text_format is not UNSET:
            field_dict["text_format"] = text_format
        if timestamping is not UNSET:
            field_dict["timestamping"] = timestamping
        if turnaround_time is not UNSET:
            field_dict["turnaround_time"] = turnaround_time
        if captions is not UNSET:
            field_dict["captions"] = captions
        if auto_retranscribe is not UNSET:
            field_dict["auto_retranscribe"] = auto_retranscribe
        if comment is not UNSET:
            field_dict["comment"] = comment
        if vocabulary is not UNSET:
            field_dict["vocabulary"] = vocabulary
        if callback_url is not UNSET:
            field_dict["callback_url"] = callback_url
        if additional_review is not UNSET:
            field_dict["additional_review"] = additional_review
        if from_ is not UNSET:
            field_dict["from"] = from_
        if number_of_speakers is not UNSET:
            field_dict["number_of_speakers"] = number_of_speakers
        if strict is not UNSET:
            field_dict["strict"] = strict
        if till is not UNSET:
            field_dict["till"] = till
        if translate_from is not UNSET:
            field_dict["translate_from"] = translate_from
        if translate_to is not UNSET:
            field_dict["translate_to"] = translate_to
        if url is not UNSET:
            field_dict["url"] = url

        return field_dict


    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("mode",  (None, str(self.mode.value).encode(), "text/plain")))



        files.append(("api_token", (None, str(self.api_token).encode(), "text/plain")))



        files.append(("audio_url", (None, str(self.audio_url).encode(), "text/plain")))



        files.append(("transcription_url", (None, str(self.transcription_url).encode(), "text/plain")))



        files.append(("language",  (None, str(self.language.value).encode(), "text/plain")))



        if not isinstance(self.idempotency_key, Unset):
            files.append(("idempotency_key", (None, str(self.idempotency_key).encode(), "text/plain")))



        if not isinstance(self.delete_after_seconds, Unset):
            files.append(("delete_after_seconds", (None, str(self.delete_after_seconds).encode(), "text/plain")))



        if not isinstance(self.text_format, Unset):
            files.append(("text_format",  (None, str(self.text_format.value).encode(), "text/plain")))



        if not isinstance(self.timestamping, Unset):
            files.append(("timestamping",  (None, str(self.timestamping.value).encode(), "text/plain")))



        if not isinstance(self.turnaround_time, Unset):
            files.append(("turnaround_time",  (None, str(self.turnaround_time.value).encode(), "text/plain")))



        if not isinstance(self.captions, Unset):
            files.append(("captions",  (None, str(self.captions.value).encode(), "text/plain")))



        if not isinstance(self.auto_retranscribe, Unset):
            files.append(("auto_retranscribe",  (None, str(self.auto_retranscribe.value).encode(), "text/plain")))



        if not isinstance(self.comment, Unset):
            files.append(("comment", (None, str(self.comment).encode(), "text/plain")))



        if not isinstance(self.vocabulary, Unset):
            if isinstance(self.vocabulary, str):

                files.append(("vocabulary", (None, str(self.vocabulary).encode(), "text/plain")))
            else:
                for vocabulary_type_1_item_element in self.vocabulary:
                    files.append(("vocabulary", (None, str(vocabulary_type_1_item_element).encode(), "text/plain")))


        if not isinstance(self.callback_url, Unset):
            files.append(("callback_url", (None, str(self.callback_url).encode(), "text/plain")))



        if not isinstance(self.additional_review, Unset):
            files.append(("additional_review", (None, str(self.additional_review).encode(), "text/plain")))



        if not isinstance(self.from_, Unset):
            files.append(("from", (None, str(self.from_).encode(), "text/plain")))



        if not isinstance(self.number_of_speakers, Unset):
            files.append(("number_of_speakers", (None, str(self.number_of_speakers).encode(), "text/plain")))



        if not isinstance(self.strict, Unset):
            files.append(("strict", (None, str(self.strict).encode(), "text/plain")))



        if not isinstance(self.till, Unset):
            files.append(("till", (None, str(self.till).encode(), "text/plain")))



        if not isinstance(self.translate_from, Unset):
            files.append(("translate_from", (None, str(self.translate_from).encode(), "text/plain")))



        if not isinstance(self.translate_to, Unset):
            files.append(("translate_to", (None, str(self.translate_to).encode(), "text/plain")))



        if not isinstance(self.url, Unset):
            files.append(("url", (None, str(self.url).encode(), "text/plain")))





        return files


    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        mode = Mode(d.pop("mode"))




        api_token = d.pop("api_token")

        audio_url = d.pop("audio_url")

        transcription_url = d.pop("transcription_url")

        language = LanguageSetHT(d.pop("language"))




        idempotency_key = d.pop("idempotency_key", UNSET)

        delete_after_seconds = d.pop("delete_after_seconds", UNSET)

        _text_format = d.pop("text_format", UNSET)
        text_format: TextFormat | Unset
        if isinstance(_text_format,  Unset):
            text_format = UNSET
        else:
            text_format = TextFormat(_text_format)




        _timestamping = d.pop("timestamping", UNSET)
        timestamping: Timestamping | Unset
        if isinstance(_timestamping,  Unset):
            timestamping = UNSET
        else:
            timestamping = Timestamping(_timestamping)




        _turnaround_time = d.pop("turnaround_time", UNSET)
        turnaround_time: TurnaroundTime | Unset
        if isinstance(_turnaround_time,  Unset):
            turnaround_time = UNSET
        else:
            turnaround_time = TurnaroundTime(_turnaround_time)




        _captions = d.pop("captions", UNSET)
        captions: FormBoolean | Unset
        if isinstance(_captions,  Unset):
            captions = UNSET
        else:
            captions = FormBoolean(_captions)




        _auto_retranscribe = d.pop("auto_retranscribe", UNSET)
        auto_retranscribe: FormBoolean | Unset
        if isinstance(_auto_retranscribe,  Unset):
            auto_retranscribe = UNSET
        else:
            auto_retranscribe = FormBoolean(_auto_retranscribe)




        comment = d.pop("comment", UNSET)

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

        from_ = d.pop("from", UNSET)

        number_of_speakers = d.pop("number_of_speakers", UNSET)

        strict = d.pop("strict", UNSET)

        till = d.pop("till", UNSET)

        translate_from = d.pop("translate_from", UNSET)

        translate_to = d.pop("translate_to", UNSET)

        url = d.pop("url", UNSET)

        transcription_proofreading_multipart = cls(
            mode=mode,
            api_token=api_token,
            audio_url=audio_url,
            transcription_url=transcription_url,
            language=language,
            idempotency_key=idempotency_key,
            delete_after_seconds=delete_after_seconds,
            text_format=text_format,
            timestamping=timestamping,
            turnaround_time=turnaround_time,
            captions=captions,
            auto_retranscribe=auto_retranscribe,
            comment=comment,
            vocabulary=vocabulary,
            callback_url=callback_url,
            additional_review=additional_review,
            from_=from_,
            number_of_speakers=number_of_speakers,
            strict=strict,
            till=till,
            translate_from=translate_from,
            translate_to=translate_to,
            url=url,
        )

        return transcription_proofreading_multipart

