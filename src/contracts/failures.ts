// Failures that cross layers: typed errors of the wallet and the order state, the names they
// travel under as Temporal ApplicationFailure types, and the one error of a caller's request.
// The HTTP layer maps all of them to the error object in one place (src/api/errors.ts).

/** ApplicationFailure types the API answers by (src/api/errors.ts): the caller's refusals (400) and a payment window the workers missed (503). */
export const FAILURE_TYPES = {
  insufficientFunds: 'InsufficientFunds',
  orderState: 'OrderState',
  paymentExpired: 'PaymentExpired',
} as const;

/** A caller's mistake: answered 400 (or `status`) with the message, which names the field. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** A missing or wrong token: a RequestError that the rate limiter also counts per client address. */
export class AuthenticationError extends RequestError {}

/** Too many requests: answered 429 with `Retry-After: retryAfterSeconds`. */
export class RateLimitedError extends RequestError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, 429);
  }
}

/**
 * The service's own capacity is full (its document readers all busy past the wait): answered 503
 * with `Retry-After`. Not the caller's excess, which is a 429: a client that follows the contract
 * takes a 4xx as its own mistake and drops the order, a 5xx as the service's and retries.
 */
export class ServiceBusyError extends RequestError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, 503);
  }
}

export class InsufficientFundsError extends Error {
  constructor(
    readonly neededCents: number,
    readonly availableCents: number,
  ) {
    super(`insufficient funds: the order costs $${(neededCents / 100).toFixed(2)} and the wallet holds $${(availableCents / 100).toFixed(2)}`);
  }
}

export class OrderStateError extends Error {}

export class AccountNotFoundError extends Error {
  constructor(readonly accountId: number) {
    super(`account ${accountId} not found`);
  }
}

/**
 * The order's workflow ran only after its payment window (its workers were down or overloaded), so
 * it refused to charge or closed unpaid: nothing was charged, the request was not at fault.
 */
export class PaymentExpiredError extends Error {
  constructor(readonly orderId: number) {
    super(paymentExpiredMessage(orderId));
  }
}

/** How the workflow and the API say it, in one wording. */
export function paymentExpiredMessage(orderId: number): string {
  return `order ${orderId} was not paid in time; nothing was charged`;
}

/** The charge was neither confirmed nor refused in time (no worker, overload). */
export class PaymentUnconfirmedError extends Error {
  constructor(
    readonly orderId: number,
    waitedMs: number,
  ) {
    super(
      `order ${orderId} was not confirmed within ${Math.round(waitedMs / 1000)} seconds (the service is busy or a worker is down); ` +
        `it is charged only if GET /api/v4/orders/${orderId} shows it: check before ordering again`,
    );
  }
}
