from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field
import json
from .. import types

from ..types import UNSET, Unset

from ..models.form_boolean import FormBoolean
from ..models.language_set_tl import LanguageSetTL
from ..models.mode import Mode
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="SubtitlesMultipart")



@_attrs_define
class SubtitlesMultipart:
    """ 
        Attributes:
            mode (Mode):
            api_token (str): the account API token
            url (str): an http or https URL of the file, which the service fetches; or the `url` that `POST /api/v4/uploads`
                answered for a file of this account (an upload's URL), read from the service's own store. Either is measured by
                its bytes, never by its name or type; an upload that is unknown, another account's, unfinished, expired or
                deleted is refused naming this field, before any charge
            translate_from (LanguageSetTL):
            translate_to (LanguageSetTL):
            idempotency_key (str | Unset): retries with the same key get the first answer; a live order is placed once (also
                the Idempotency-Key header)
            delete_after_seconds (str | Unset): the order's data (its media, results, texts, URLs, comment and vocabulary)
                is deleted this many seconds after the order is finished, refunded or canceled; the record stays for the bill
                with deleted_at. Default: the account's rule (Settings: Delete orders' data after), else never
            additional_review (FormBoolean | Unset):  Default: FormBoolean.FALSE.
            comment (str | Unset):
            vocabulary (list[str] | str | Unset): Terms of the recording or text (names, places, product words): a list, or
                one text separated by commas or new lines; up to 200 terms of up to 50 characters, each kept in Unicode NFC,
                repeats left out. Control, format and invisible characters (bidi controls, zero-width and tag characters) are
                refused; ZWJ and ZWNJ are taken inside a word they shape. They steer the machine and are shown to the people;
                they do not change the price.
            callback_url (str | Unset): an http or https URL
            audio_url (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            auto_retranscribe (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            captions (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            from_ (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            language (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            number_of_speakers (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            strict (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            text_format (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            till (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            timestamping (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            transcription_url (Any | Unset): a parameter of another v4 operation: accepted and ignored here
            turnaround_time (Any | Unset): a parameter of another v4 operation: accepted and ignored here
     """

    mode: Mode
    api_token: str
    url: str
    translate_from: LanguageSetTL
    translate_to: LanguageSetTL
    idempotency_key: str | Unset = UNSET
    delete_after_seconds: str | Unset = UNSET
    additional_review: FormBoolean | Unset = FormBoolean.FALSE
    comment: str | Unset = UNSET
    vocabulary: list[str] | str | Unset = UNSET
    callback_url: str | Unset = UNSET
    audio_url: Any | Unset = UNSET
    auto_retranscribe: Any | Unset = UNSET
    captions: Any | Unset = UNSET
    from_: Any | Unset = UNSET
    language: Any | Unset = UNSET
    number_of_speakers: Any | Unset = UNSET
    strict: Any | Unset = UNSET
    text_format: Any | Unset = UNSET
    till: Any | Unset = UNSET
    timestamping: Any | Unset = UNSET
    transcription_url: Any | Unset = UNSET
    turnaround_time: Any | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        mode = self.mode.value

        api_token = self.api_token

        url = self.url

        translate_from = self.translate_from.value

        translate_to = self.translate_to.value

        idempotency_key = self.idempotency_key

        delete_after_seconds = self.delete_after_seconds

        additional_review: str | Unset = UNSET
        if not isinstance(self.additional_review, Unset):
            additional_review = self.additional_review.value


        comment = self.comment

        vocabulary: list[str] | str | Unset
        if isinstance(self.vocabulary, Unset):
            vocabulary = UNSET
        elif isinstance(self.vocabulary, list):
            vocabulary = self.vocabulary


        else:
            vocabulary = self.vocabulary

        callback_url = self.callback_url

        audio_url = self.audio_url

        auto_retranscribe = self.auto_retranscribe

        captions = self.captions

        from_ = self.from_

        language = self.language

        number_of_speakers = self.number_of_speakers

        strict = self.strict

        text_format = self.text_format

        till = self.till

        timestamping = self.timestamping

        transcription_url = self.transcription_url

        turnaround_time = self.turnaround_time


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "mode": mode,
            "api_token": api_token,
            "url": url,
            "translate_from": translate_from,
            "translate_to": translate_to,
        })
        if idempotency_key is not UNSET:
            field_dict["idempotency_key"] = idempotency_key
        if delete_after_seconds is not UNSET:
            field_dict["delete_after_seconds"] = delete_after_seconds
        if additional_review is not UNSET:
            field_dict["additional_review"] = additional_review
        if comment is not UNSET:
            field_dict["comment"] = comment
        if vocabulary is not UNSET:
            field_dict["vocabulary"] = vocabulary
        if callback_url is not UNSET:
            field_dict["callback_url"] = callback_url
        if audio_url is not UNSET:
            field_dict["audio_url"] = audio_url
        if auto_retranscribe is not UNSET:
            field_dict["auto_retranscribe"] = auto_retranscribe
        if captions is not UNSET:
            field_dict["captions"] = captions
        if from_ is not UNSET:
            field_dict["from"] = from_
        if language is not UNSET:
            field_dict["language"] = language
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
        if transcription_url is not UNSET:
            field_dict["transcription_url"] = transcription_url
        if turnaround_time is not UNSET:
            field_dict["turnaround_time"] = turnaround_time

        return field_dict


    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("mode",  (None, str(self.mode.value).encode(), "text/plain")))



        files.append(("api_token", (None, str(self.api_token).encode(), "text/plain")))



        files.append(("url", (None, str(self.url).encode(), "text/plain")))



        files.append(("translate_from",  (None, str(self.translate_from.value).encode(), "text/plain")))



        files.append(("translate_to",  (None, str(self.translate_to.value).encode(), "text/plain")))



        if not isinstance(self.idempotency_key, Unset):
            files.append(("idempotency_key", (None, str(self.idempotency_key).encode(), "text/plain")))



        if not isinstance(self.delete_after_seconds, Unset):
            files.append(("delete_after_seconds", (None, str(self.delete_after_seconds).encode(), "text/plain")))



        if not isinstance(self.additional_review, Unset):
            files.append(("additional_review",  (None, str(self.additional_review.value).encode(), "text/plain")))



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



        if not isinstance(self.audio_url, Unset):
            files.append(("audio_url", (None, str(self.audio_url).encode(), "text/plain")))



        if not isinstance(self.auto_retranscribe, Unset):
            files.append(("auto_retranscribe", (None, str(self.auto_retranscribe).encode(), "text/plain")))



        if not isinstance(self.captions, Unset):
            files.append(("captions", (None, str(self.captions).encode(), "text/plain")))



        if not isinstance(self.from_, Unset):
            files.append(("from", (None, str(self.from_).encode(), "text/plain")))



        if not isinstance(self.language, Unset):
            files.append(("language", (None, str(self.language).encode(), "text/plain")))



        if not isinstance(self.number_of_speakers, Unset):
            files.append(("number_of_speakers", (None, str(self.number_of_speakers).encode(), "text/plain")))



        if not isinstance(self.strict, Unset):
            files.append(("strict", (None, str(self.strict).encode(), "text/plain")))



        if not isinstance(self.text_format, Unset):
            files.append(("text_format", (None, str(self.text_format).encode(), "text/plain")))



        if not isinstance(self.till, Unset):
            files.append(("till", (None, str(self.till).encode(), "text/plain")))



        if not isinstance(self.timestamping, Unset):
            files.append(("timestamping", (None, str(self.timestamping).encode(), "text/plain")))



        if not isinstance(self.transcription_url, Unset):
            files.append(("transcription_url", (None, str(self.transcription_url).encode(), "text/plain")))



        if not isinstance(self.turnaround_time, Unset):
            files.append(("turnaround_time", (None, str(self.turnaround_time).encode(), "text/plain")))





        return files


    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        mode = Mode(d.pop("mode"))




        api_token = d.pop("api_token")

        url = d.pop("url")

        translate_from = LanguageSetTL(d.pop("translate_from"))




        translate_to = LanguageSetTL(d.pop("translate_to"))




        idempotency_key = d.pop("idempotency_key", UNSET)

        delete_after_seconds = d.pop("delete_after_seconds", UNSET)

        _additional_review = d.pop("additional_review", UNSET)
        additional_review: FormBoolean | Unset
        if isinstance(_additional_review,  Unset):
            additional_review = UNSET
        else:
            additional_review = FormBoolean(_additional_review)




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

        audio_url = d.pop("audio_url", UNSET)

        auto_retranscribe = d.pop("auto_retranscribe", UNSET)

        captions = d.pop("captions", UNSET)

        from_ = d.pop("from", UNSET)

        language = d.pop("language", UNSET)

        number_of_speakers = d.pop("number_of_speakers", UNSET)

        strict = d.pop("strict", UNSET)

        text_format = d.pop("text_format", UNSET)

        till = d.pop("till", UNSET)

        timestamping = d.pop("timestamping", UNSET)

        transcription_url = d.pop("transcription_url", UNSET)

        turnaround_time = d.pop("turnaround_time", UNSET)

        subtitles_multipart = cls(
            mode=mode,
            api_token=api_token,
            url=url,
            translate_from=translate_from,
            translate_to=translate_to,
            idempotency_key=idempotency_key,
            delete_after_seconds=delete_after_seconds,
            additional_review=additional_review,
            comment=comment,
            vocabulary=vocabulary,
            callback_url=callback_url,
            audio_url=audio_url,
            auto_retranscribe=auto_retranscribe,
            captions=captions,
            from_=from_,
            language=language,
            number_of_speakers=number_of_speakers,
            strict=strict,
            text_format=text_format,
            till=till,
            timestamping=timestamping,
            transcription_url=transcription_url,
            turnaround_time=turnaround_time,
        )

        return subtitles_multipart

