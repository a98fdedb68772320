from enum import StrEnum

class OrderDeletedDataStatus(StrEnum):
    AWAITING_PAYMENT = "awaiting_payment"
    CANCELED = "canceled"
    FINISHED = "finished"
    PAID = "paid"
    PAYMENT_FAILED = "payment_failed"
    REFUNDED = "refunded"
    RETRANSCRIBED = "retranscribed"

    def __str__(self) -> str:
        return str(self.value)
