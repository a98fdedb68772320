""" Contains shared errors types that can be raised from API functions """

from typing import TypeVar

from .types import Response

T = TypeVar("T")


class UnexpectedStatus(Exception):
    """Raised by api functions when the response status an undocumented status and Client.raise_on_unexpected_status is True"""

    def __init__(self, status_code: int, content: bytes):
        self.status_code = status_code
        self.content = content

        super().__init__(
            f"Unexpected status code: {status_code}\n\nResponse content:\n{content.decode(errors='ignore')}"
        )


class OrderServiceError(Exception):
    """A refusal or a failure of the order service, as one error: the HTTP status (400 the
    request's problem, 413 too large, 415 a body type it does not take, 429 this token's rate
    limit, 503 its capacity), the error object's message (naming the field), and the seconds
    Retry-After asks to wait (429, 503), when the service said."""

    def __init__(self, status_code: int, message: str, retry_after_seconds: int | None, error: object | None = None):
        self.status_code = status_code
        self.message = message
        self.retry_after_seconds = retry_after_seconds
        self.error = error
        super().__init__(message)

    @property
    def retryable(self) -> bool:
        """Whether retrying later can succeed: the service's capacity (5xx) or this token's rate (429)."""
        return self.status_code == 429 or self.status_code >= 500


def or_raise(response: Response[T]) -> T:
    """The answer's parsed body when it succeeded; else an OrderServiceError.
    Use with the `*_detailed` functions: `or_raise(create_transcription.sync_detailed(client=c, body=b))`."""
    status = int(response.status_code)
    parsed = response.parsed
    if 200 <= status < 300 and parsed is not None:
        return parsed
    message = getattr(parsed, "error", None)
    if not isinstance(message, str):
        message = f"the order service answered {status}"
    retry_after = response.headers.get("retry-after")
    seconds = int(retry_after) if retry_after is not None and retry_after.isdigit() else None
    raise OrderServiceError(status, message, seconds, parsed)


__all__ = ["OrderServiceError", "UnexpectedStatus", "or_raise"]
