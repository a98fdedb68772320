""" Contains all the data models used in inputs/outputs """

from .ai_transcription_callback_type_0 import AiTranscriptionCallbackType0
from .ai_transcription_callback_type_1 import AiTranscriptionCallbackType1
from .ai_transcription_callback_type_2 import AiTranscriptionCallbackType2
from .ai_transcription_created import AiTranscriptionCreated
from .ai_transcription_created_mode import AiTranscriptionCreatedMode
from .ai_transcription_form import AiTranscriptionForm
from .ai_transcription_form_language import AiTranscriptionFormLanguage
from .ai_transcription_form_mode import AiTranscriptionFormMode
from .ai_transcription_multipart import AiTranscriptionMultipart
from .ai_transcription_multipart_language import AiTranscriptionMultipartLanguage
from .ai_transcription_multipart_mode import AiTranscriptionMultipartMode
from .ai_transcription_request import AiTranscriptionRequest
from .ai_transcription_request_language import AiTranscriptionRequestLanguage
from .ai_transcription_request_mode import AiTranscriptionRequestMode
from .captions_callback_type_0 import CaptionsCallbackType0
from .captions_callback_type_1 import CaptionsCallbackType1
from .captions_callback_type_2 import CaptionsCallbackType2
from .captions_created import CaptionsCreated
from .captions_created_mode import CaptionsCreatedMode
from .captions_form import CaptionsForm
from .captions_form_language import CaptionsFormLanguage
from .captions_form_mode import CaptionsFormMode
from .captions_form_number_of_speakers import CaptionsFormNumberOfSpeakers
from .captions_form_text_format import CaptionsFormTextFormat
from .captions_form_timestamping import CaptionsFormTimestamping
from .captions_form_turnaround_time import CaptionsFormTurnaroundTime
from .captions_multipart import CaptionsMultipart
from .captions_multipart_language import CaptionsMultipartLanguage
from .captions_multipart_mode import CaptionsMultipartMode
from .captions_multipart_number_of_speakers import CaptionsMultipartNumberOfSpeakers
from .captions_multipart_text_format import CaptionsMultipartTextFormat
from .captions_multipart_timestamping import CaptionsMultipartTimestamping
from .captions_multipart_turnaround_time import CaptionsMultipartTurnaroundTime
from .captions_request import CaptionsRequest
from .captions_request_language import CaptionsRequestLanguage
from .captions_request_mode import CaptionsRequestMode
from .captions_request_number_of_speakers import CaptionsRequestNumberOfSpeakers
from .captions_request_text_format import CaptionsRequestTextFormat
from .captions_request_timestamping import CaptionsRequestTimestamping
from .captions_request_turnaround_time import CaptionsRequestTurnaroundTime
from .error import Error
from .forced_alignment_callback_type_0 import ForcedAlignmentCallbackType0
from .forced_alignment_callback_type_1 import ForcedAlignmentCallbackType1
from .forced_alignment_callback_type_2 import ForcedAlignmentCallbackType2
from .forced_alignment_created import ForcedAlignmentCreated
from .forced_alignment_created_mode import ForcedAlignmentCreatedMode
from .forced_alignment_form import ForcedAlignmentForm
from .forced_alignment_form_language import ForcedAlignmentFormLanguage
from .forced_alignment_form_mode import ForcedAlignmentFormMode
from .forced_alignment_multipart import ForcedAlignmentMultipart
from .forced_alignment_multipart_language import ForcedAlignmentMultipartLanguage
from .forced_alignment_multipart_mode import ForcedAlignmentMultipartMode
from .forced_alignment_request import ForcedAlignmentRequest
from .forced_alignment_request_language import ForcedAlignmentRequestLanguage
from .forced_alignment_request_mode import ForcedAlignmentRequestMode
from .get_open_api_document_response_200 import GetOpenApiDocumentResponse200
from .get_order_mode import GetOrderMode
from .get_result_file_format import GetResultFileFormat
from .get_result_file_kind import GetResultFileKind
from .get_result_file_mode import GetResultFileMode
from .human_ocr_callback_type_0 import HumanOcrCallbackType0
from .human_ocr_callback_type_1 import HumanOcrCallbackType1
from .human_ocr_callback_type_2 import HumanOcrCallbackType2
from .human_ocr_created import HumanOcrCreated
from .human_ocr_created_mode import HumanOcrCreatedMode
from .human_ocr_form import HumanOcrForm
from .human_ocr_form_language import HumanOcrFormLanguage
from .human_ocr_form_mode import HumanOcrFormMode
from .human_ocr_multipart import HumanOcrMultipart
from .human_ocr_multipart_language import HumanOcrMultipartLanguage
from .human_ocr_multipart_mode import HumanOcrMultipartMode
from .human_ocr_request import HumanOcrRequest
from .human_ocr_request_language import HumanOcrRequestLanguage
from .human_ocr_request_mode import HumanOcrRequestMode
from .languages import Languages
from .languages_additional_property_item import LanguagesAdditionalPropertyItem
from .list_languages_product import ListLanguagesProduct
from .list_orders_mode import ListOrdersMode
from .order import Order
from .order_data import OrderData
from .order_data_status import OrderDataStatus
from .order_data_type import OrderDataType
from .order_list import OrderList
from .order_list_orders_item import OrderListOrdersItem
from .order_list_orders_item_status import OrderListOrdersItemStatus
from .order_list_orders_item_type import OrderListOrdersItemType
from .subtitles_callback_type_0 import SubtitlesCallbackType0
from .subtitles_callback_type_1 import SubtitlesCallbackType1
from .subtitles_callback_type_2 import SubtitlesCallbackType2
from .subtitles_created import SubtitlesCreated
from .subtitles_created_mode import SubtitlesCreatedMode
from .subtitles_form import SubtitlesForm
from .subtitles_form_additional_review import SubtitlesFormAdditionalReview
from .subtitles_form_mode import SubtitlesFormMode
from .subtitles_form_translate_from import SubtitlesFormTranslateFrom
from .subtitles_form_translate_to import SubtitlesFormTranslateTo
from .subtitles_multipart import SubtitlesMultipart
from .subtitles_multipart_additional_review import SubtitlesMultipartAdditionalReview
from .subtitles_multipart_mode import SubtitlesMultipartMode
from .subtitles_multipart_translate_from import SubtitlesMultipartTranslateFrom
from .subtitles_multipart_translate_to import SubtitlesMultipartTranslateTo
from .subtitles_request import SubtitlesRequest
from .subtitles_request_mode import SubtitlesRequestMode
from .subtitles_request_translate_from import SubtitlesRequestTranslateFrom
from .subtitles_request_translate_to import SubtitlesRequestTranslateTo
from .transcription_callback_type_0 import TranscriptionCallbackType0
from .transcription_callback_type_1 import TranscriptionCallbackType1
from .transcription_callback_type_2 import TranscriptionCallbackType2
from .transcription_created import TranscriptionCreated
from .transcription_created_mode import TranscriptionCreatedMode
from .transcription_form import TranscriptionForm
from .transcription_form_language import TranscriptionFormLanguage
from .transcription_form_mode import TranscriptionFormMode
from .transcription_form_number_of_speakers import TranscriptionFormNumberOfSpeakers
from .transcription_form_strict import TranscriptionFormStrict
from .transcription_form_text_format import TranscriptionFormTextFormat
from .transcription_form_timestamping import TranscriptionFormTimestamping
from .transcription_form_turnaround_time import TranscriptionFormTurnaroundTime
from .transcription_multipart import TranscriptionMultipart
from .transcription_multipart_language import TranscriptionMultipartLanguage
from .transcription_multipart_mode import TranscriptionMultipartMode
from .transcription_multipart_number_of_speakers import TranscriptionMultipartNumberOfSpeakers
from .transcription_multipart_strict import TranscriptionMultipartStrict
from .transcription_multipart_text_format import TranscriptionMultipartTextFormat
from .transcription_multipart_timestamping import TranscriptionMultipartTimestamping
from .transcription_multipart_turnaround_time import TranscriptionMultipartTurnaroundTime
from .transcription_proofreading_callback_type_0 import TranscriptionProofreadingCallbackType0
from .transcription_proofreading_callback_type_1 import TranscriptionProofreadingCallbackType1
from .transcription_proofreading_callback_type_2 import TranscriptionProofreadingCallbackType2
from .transcription_proofreading_created import TranscriptionProofreadingCreated
from .transcription_proofreading_created_mode import TranscriptionProofreadingCreatedMode
from .transcription_proofreading_form import TranscriptionProofreadingForm
from .transcription_proofreading_form_auto_retranscribe import TranscriptionProofreadingFormAutoRetranscribe
from .transcription_proofreading_form_captions import TranscriptionProofreadingFormCaptions
from .transcription_proofreading_form_language import TranscriptionProofreadingFormLanguage
from .transcription_proofreading_form_mode import TranscriptionProofreadingFormMode
from .transcription_proofreading_form_text_format import TranscriptionProofreadingFormTextFormat
from .transcription_proofreading_form_timestamping import TranscriptionProofreadingFormTimestamping
from .transcription_proofreading_form_turnaround_time import TranscriptionProofreadingFormTurnaroundTime
from .transcription_proofreading_multipart import TranscriptionProofreadingMultipart
from .transcription_proofreading_multipart_auto_retranscribe import TranscriptionProofreadingMultipartAutoRetranscribe
from .transcription_proofreading_multipart_captions import TranscriptionProofreadingMultipartCaptions
from .transcription_proofreading_multipart_language import TranscriptionProofreadingMultipartLanguage
from .transcription_proofreading_multipart_mode import TranscriptionProofreadingMultipartMode
from .transcription_proofreading_multipart_text_format import TranscriptionProofreadingMultipartTextFormat
from .transcription_proofreading_multipart_timestamping import TranscriptionProofreadingMultipartTimestamping
from .transcription_proofreading_multipart_turnaround_time import TranscriptionProofreadingMultipartTurnaroundTime
from .transcription_proofreading_request import TranscriptionProofreadingRequest
from .transcription_proofreading_request_language import TranscriptionProofreadingRequestLanguage
from .transcription_proofreading_request_mode import TranscriptionProofreadingRequestMode
from .transcription_proofreading_request_text_format import TranscriptionProofreadingRequestTextFormat
from .transcription_proofreading_request_timestamping import TranscriptionProofreadingRequestTimestamping
from .transcription_proofreading_request_turnaround_time import TranscriptionProofreadingRequestTurnaroundTime
from .transcription_request import TranscriptionRequest
from .transcription_request_language import TranscriptionRequestLanguage
from .transcription_request_mode import TranscriptionRequestMode
from .transcription_request_number_of_speakers import TranscriptionRequestNumberOfSpeakers
from .transcription_request_text_format import TranscriptionRequestTextFormat
from .transcription_request_timestamping import TranscriptionRequestTimestamping
from .transcription_request_turnaround_time import TranscriptionRequestTurnaroundTime
from .translation_callback_type_0 import TranslationCallbackType0
from .translation_callback_type_1 import TranslationCallbackType1
from .translation_callback_type_2 import TranslationCallbackType2
from .translation_created import TranslationCreated
from .translation_created_mode import TranslationCreatedMode
from .translation_form import TranslationForm
from .translation_form_additional_review import TranslationFormAdditionalReview
from .translation_form_mode import TranslationFormMode
from .translation_form_translate_from import TranslationFormTranslateFrom
from .translation_form_translate_to import TranslationFormTranslateTo
from .translation_multipart import TranslationMultipart
from .translation_multipart_additional_review import TranslationMultipartAdditionalReview
from .translation_multipart_mode import TranslationMultipartMode
from .translation_multipart_translate_from import TranslationMultipartTranslateFrom
from .translation_multipart_translate_to import TranslationMultipartTranslateTo
from .translation_request import TranslationRequest
from .translation_request_mode import TranslationRequestMode
from .translation_request_translate_from import TranslationRequestTranslateFrom
from .translation_request_translate_to import TranslationRequestTranslateTo

__all__ = (
    "AiTranscriptionCallbackType0",
    "AiTranscriptionCallbackType1",
    "AiTranscriptionCallbackType2",
    "AiTranscriptionCreated",
    "AiTranscriptionCreatedMode",
    "AiTranscriptionForm",
    "AiTranscriptionFormLanguage",
    "AiTranscriptionFormMode",
    "AiTranscriptionMultipart",
    "AiTranscriptionMultipartLanguage",
    "AiTranscriptionMultipartMode",
    "AiTranscriptionRequest",
    "AiTranscriptionRequestLanguage",
    "AiTranscriptionRequestMode",
    "CaptionsCallbackType0",
    "CaptionsCallbackType1",
    "CaptionsCallbackType2",
    "CaptionsCreated",
    "CaptionsCreatedMode",
    "CaptionsForm",
    "CaptionsFormLanguage",
    "CaptionsFormMode",
    "CaptionsFormNumberOfSpeakers",
    "CaptionsFormTextFormat",
    "CaptionsFormTimestamping",
    "CaptionsFormTurnaroundTime",
    "CaptionsMultipart",
    "CaptionsMultipartLanguage",
    "CaptionsMultipartMode",
    "CaptionsMultipartNumberOfSpeakers",
    "CaptionsMultipartTextFormat",
    "CaptionsMultipartTimestamping",
    "CaptionsMultipartTurnaroundTime",
    "CaptionsRequest",
    "CaptionsRequestLanguage",
    "CaptionsRequestMode",
    "CaptionsRequestNumberOfSpeakers",
    "CaptionsRequestTextFormat",
    "CaptionsRequestTimestamping",
    "CaptionsRequestTurnaroundTime",
    "Error",
    "ForcedAlignmentCallbackType0",
    "ForcedAlignmentCallbackType1",
    "ForcedAlignmentCallbackType2",
    "ForcedAlignmentCreated",
    "ForcedAlignmentCreatedMode",
    "ForcedAlignmentForm",
    "ForcedAlignmentFormLanguage",
    "ForcedAlignmentFormMode",
    "ForcedAlignmentMultipart",
    "ForcedAlignmentMultipartLanguage",
    "ForcedAlignmentMultipartMode",
    "ForcedAlignmentRequest",
    "ForcedAlignmentRequestLanguage",
    "ForcedAlignmentRequestMode",
    "GetOpenApiDocumentResponse200",
    "GetOrderMode",
    "GetResultFileFormat",
    "GetResultFileKind",
    "GetResultFileMode",
    "HumanOcrCallbackType0",
    "HumanOcrCallbackType1",
    "HumanOcrCallbackType2",
    "HumanOcrCreated",
    "HumanOcrCreatedMode",
    "HumanOcrForm",
    "HumanOcrFormLanguage",
    "HumanOcrFormMode",
    "HumanOcrMultipart",
    "HumanOcrMultipartLanguage",
    "HumanOcrMultipartMode",
    "HumanOcrRequest",
    "HumanOcrRequestLanguage",
    "HumanOcrRequestMode",
    "Languages",
    "LanguagesAdditionalPropertyItem",
    "ListLanguagesProduct",
    "ListOrdersMode",
    "Order",
    "OrderData",
    "OrderDataStatus",
    "OrderDataType",
    "OrderList",
    "OrderListOrdersItem",
    "OrderListOrdersItemStatus",
    "OrderListOrdersItemType",
    "SubtitlesCallbackType0",
    "SubtitlesCallbackType1",
    "SubtitlesCallbackType2",
    "SubtitlesCreated",
    "SubtitlesCreatedMode",
    "SubtitlesForm",
    "SubtitlesFormAdditionalReview",
    "SubtitlesFormMode",
    "SubtitlesFormTranslateFrom",
    "SubtitlesFormTranslateTo",
    "SubtitlesMultipart",
    "SubtitlesMultipartAdditionalReview",
    "SubtitlesMultipartMode",
    "SubtitlesMultipartTranslateFrom",
    "SubtitlesMultipartTranslateTo",
    "SubtitlesRequest",
    "SubtitlesRequestMode",
    "SubtitlesRequestTranslateFrom",
    "SubtitlesRequestTranslateTo",
    "TranscriptionCallbackType0",
    "TranscriptionCallbackType1",
    "TranscriptionCallbackType2",
    "TranscriptionCreated",
    "TranscriptionCreatedMode",
    "TranscriptionForm",
    "TranscriptionFormLanguage",
    "TranscriptionFormMode",
    "TranscriptionFormNumberOfSpeakers",
    "TranscriptionFormStrict",
    "TranscriptionFormTextFormat",
    "TranscriptionFormTimestamping",
    "TranscriptionFormTurnaroundTime",
    "TranscriptionMultipart",
    "TranscriptionMultipartLanguage",
    "TranscriptionMultipartMode",
    "TranscriptionMultipartNumberOfSpeakers",
    "TranscriptionMultipartStrict",
    "TranscriptionMultipartTextFormat",
    "TranscriptionMultipartTimestamping",
    "TranscriptionMultipartTurnaroundTime",
    "TranscriptionProofreadingCallbackType0",
    "TranscriptionProofreadingCallbackType1",
    "TranscriptionProofreadingCallbackType2",
    "TranscriptionProofreadingCreated",
    "TranscriptionProofreadingCreatedMode",
    "TranscriptionProofreadingForm",
    "TranscriptionProofreadingFormAutoRetranscribe",
    "TranscriptionProofreadingFormCaptions",
    "TranscriptionProofreadingFormLanguage",
    "TranscriptionProofreadingFormMode",
    "TranscriptionProofreadingFormTextFormat",
    "TranscriptionProofreadingFormTimestamping",
    "TranscriptionProofreadingFormTurnaroundTime",
    "TranscriptionProofreadingMultipart",
    "TranscriptionProofreadingMultipartAutoRetranscribe",
    "TranscriptionProofreadingMultipartCaptions",
    "TranscriptionProofreadingMultipartLanguage",
    "TranscriptionProofreadingMultipartMode",
    "TranscriptionProofreadingMultipartTextFormat",
    "TranscriptionProofreadingMultipartTimestamping",
    "TranscriptionProofreadingMultipartTurnaroundTime",
    "TranscriptionProofreadingRequest",
    "TranscriptionProofreadingRequestLanguage",
    "TranscriptionProofreadingRequestMode",
    "TranscriptionProofreadingRequestTextFormat",
    "TranscriptionProofreadingRequestTimestamping",
    "TranscriptionProofreadingRequestTurnaroundTime",
    "TranscriptionRequest",
    "TranscriptionRequestLanguage",
    "TranscriptionRequestMode",
    "TranscriptionRequestNumberOfSpeakers",
    "TranscriptionRequestTextFormat",
    "TranscriptionRequestTimestamping",
    "TranscriptionRequestTurnaroundTime",
    "TranslationCallbackType0",
    "TranslationCallbackType1",
    "TranslationCallbackType2",
    "TranslationCreated",
    "TranslationCreatedMode",
    "TranslationForm",
    "TranslationFormAdditionalReview",
    "TranslationFormMode",
    "TranslationFormTranslateFrom",
    "TranslationFormTranslateTo",
    "TranslationMultipart",
    "TranslationMultipartAdditionalReview",
    "TranslationMultipartMode",
    "TranslationMultipartTranslateFrom",
    "TranslationMultipartTranslateTo",
    "TranslationRequest",
    "TranslationRequestMode",
    "TranslationRequestTranslateFrom",
    "TranslationRequestTranslateTo",
)
