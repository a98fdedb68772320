""" Contains all the data models used in inputs/outputs """

from .ai_transcription_callback_type_0 import AiTranscriptionCallbackType0
from .ai_transcription_callback_type_1 import AiTranscriptionCallbackType1
from .ai_transcription_callback_type_2 import AiTranscriptionCallbackType2
from .ai_transcription_created import AiTranscriptionCreated
from .ai_transcription_form import AiTranscriptionForm
from .ai_transcription_multipart import AiTranscriptionMultipart
from .ai_transcription_request import AiTranscriptionRequest
from .captions_callback_type_0 import CaptionsCallbackType0
from .captions_callback_type_1 import CaptionsCallbackType1
from .captions_callback_type_2 import CaptionsCallbackType2
from .captions_created import CaptionsCreated
from .captions_form import CaptionsForm
from .captions_multipart import CaptionsMultipart
from .captions_request import CaptionsRequest
from .delete_order_data_mode import DeleteOrderDataMode
from .error import Error
from .forced_alignment_callback_type_0 import ForcedAlignmentCallbackType0
from .forced_alignment_callback_type_1 import ForcedAlignmentCallbackType1
from .forced_alignment_callback_type_2 import ForcedAlignmentCallbackType2
from .forced_alignment_created import ForcedAlignmentCreated
from .forced_alignment_form import ForcedAlignmentForm
from .forced_alignment_multipart import ForcedAlignmentMultipart
from .forced_alignment_request import ForcedAlignmentRequest
from .form_boolean import FormBoolean
from .get_open_api_document_response_200 import GetOpenApiDocumentResponse200
from .get_order_mode import GetOrderMode
from .get_result_file_format import GetResultFileFormat
from .get_result_file_kind import GetResultFileKind
from .get_result_file_mode import GetResultFileMode
from .human_ocr_callback_type_0 import HumanOcrCallbackType0
from .human_ocr_callback_type_1 import HumanOcrCallbackType1
from .human_ocr_callback_type_2 import HumanOcrCallbackType2
from .human_ocr_created import HumanOcrCreated
from .human_ocr_form import HumanOcrForm
from .human_ocr_multipart import HumanOcrMultipart
from .human_ocr_request import HumanOcrRequest
from .language_set_ai import LanguageSetAI
from .language_set_fa import LanguageSetFA
from .language_set_ht import LanguageSetHT
from .language_set_tl import LanguageSetTL
from .languages import Languages
from .languages_additional_property_item import LanguagesAdditionalPropertyItem
from .list_languages_product import ListLanguagesProduct
from .list_orders_mode import ListOrdersMode
from .mode import Mode
from .number_of_speakers import NumberOfSpeakers
from .order import Order
from .order_data import OrderData
from .order_data_status import OrderDataStatus
from .order_data_type import OrderDataType
from .order_deleted import OrderDeleted
from .order_deleted_data import OrderDeletedData
from .order_deleted_data_status import OrderDeletedDataStatus
from .order_deleted_data_type import OrderDeletedDataType
from .order_list import OrderList
from .order_list_orders_item import OrderListOrdersItem
from .order_list_orders_item_status import OrderListOrdersItemStatus
from .order_list_orders_item_type import OrderListOrdersItemType
from .subtitles_callback_type_0 import SubtitlesCallbackType0
from .subtitles_callback_type_1 import SubtitlesCallbackType1
from .subtitles_callback_type_2 import SubtitlesCallbackType2
from .subtitles_created import SubtitlesCreated
from .subtitles_form import SubtitlesForm
from .subtitles_multipart import SubtitlesMultipart
from .subtitles_request import SubtitlesRequest
from .text_format import TextFormat
from .timestamping import Timestamping
from .transcription_callback_type_0 import TranscriptionCallbackType0
from .transcription_callback_type_1 import TranscriptionCallbackType1
from .transcription_callback_type_2 import TranscriptionCallbackType2
from .transcription_created import TranscriptionCreated
from .transcription_form import TranscriptionForm
from .transcription_multipart import TranscriptionMultipart
from .transcription_proofreading_callback_type_0 import TranscriptionProofreadingCallbackType0
from .transcription_proofreading_callback_type_1 import TranscriptionProofreadingCallbackType1
from .transcription_proofreading_callback_type_2 import TranscriptionProofreadingCallbackType2
from .transcription_proofreading_created import TranscriptionProofreadingCreated
from .transcription_proofreading_form import TranscriptionProofreadingForm
from .transcription_proofreading_multipart import TranscriptionProofreadingMultipart
from .transcription_proofreading_request import TranscriptionProofreadingRequest
from .transcription_request import TranscriptionRequest
from .translation_callback_type_0 import TranslationCallbackType0
from .translation_callback_type_1 import TranslationCallbackType1
from .translation_callback_type_2 import TranslationCallbackType2
from .translation_created import TranslationCreated
from .translation_form import TranslationForm
from .translation_multipart import TranslationMultipart
from .translation_request import TranslationRequest
from .turnaround_time import TurnaroundTime
from .tus_resumable import TusResumable
from .upload import Upload

__all__ = (
    "AiTranscriptionCallbackType0",
    "AiTranscriptionCallbackType1",
    "AiTranscriptionCallbackType2",
    "AiTranscriptionCreated",
    "AiTranscriptionForm",
    "AiTranscriptionMultipart",
    "AiTranscriptionRequest",
    "CaptionsCallbackType0",
    "CaptionsCallbackType1",
    "CaptionsCallbackType2",
    "CaptionsCreated",
    "CaptionsForm",
    "CaptionsMultipart",
    "CaptionsRequest",
    "DeleteOrderDataMode",
    "Error",
    "ForcedAlignmentCallbackType0",
    "ForcedAlignmentCallbackType1",
    "ForcedAlignmentCallbackType2",
    "ForcedAlignmentCreated",
    "ForcedAlignmentForm",
    "ForcedAlignmentMultipart",
    "ForcedAlignmentRequest",
    "FormBoolean",
    "GetOpenApiDocumentResponse200",
    "GetOrderMode",
    "GetResultFileFormat",
    "GetResultFileKind",
    "GetResultFileMode",
    "HumanOcrCallbackType0",
    "HumanOcrCallbackType1",
    "HumanOcrCallbackType2",
    "HumanOcrCreated",
    "HumanOcrForm",
    "HumanOcrMultipart",
    "HumanOcrRequest",
    "Languages",
    "LanguagesAdditionalPropertyItem",
    "LanguageSetAI",
    "LanguageSetFA",
    "LanguageSetHT",
    "LanguageSetTL",
    "ListLanguagesProduct",
    "ListOrdersMode",
    "Mode",
    "NumberOfSpeakers",
    "Order",
    "OrderData",
    "OrderDataStatus",
    "OrderDataType",
    "OrderDeleted",
    "OrderDeletedData",
    "OrderDeletedDataStatus",
    "OrderDeletedDataType",
    "OrderList",
    "OrderListOrdersItem",
    "OrderListOrdersItemStatus",
    "OrderListOrdersItemType",
    "SubtitlesCallbackType0",
    "SubtitlesCallbackType1",
    "SubtitlesCallbackType2",
    "SubtitlesCreated",
    "SubtitlesForm",
    "SubtitlesMultipart",
    "SubtitlesRequest",
    "TextFormat",
    "Timestamping",
    "TranscriptionCallbackType0",
    "TranscriptionCallbackType1",
    "TranscriptionCallbackType2",
    "TranscriptionCreated",
    "TranscriptionForm",
    "TranscriptionMultipart",
    "TranscriptionProofreadingCallbackType0",
    "TranscriptionProofreadingCallbackType1",
    "TranscriptionProofreadingCallbackType2",
    "TranscriptionProofreadingCreated",
    "TranscriptionProofreadingForm",
    "TranscriptionProofreadingMultipart",
    "TranscriptionProofreadingRequest",
    "TranscriptionRequest",
    "TranslationCallbackType0",
    "TranslationCallbackType1",
    "TranslationCallbackType2",
    "TranslationCreated",
    "TranslationForm",
    "TranslationMultipart",
    "TranslationRequest",
    "TurnaroundTime",
    "TusResumable",
    "Upload",
)
