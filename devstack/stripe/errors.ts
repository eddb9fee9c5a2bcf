// Errors in Stripe's shape: `{ error: { type, code?, doc_url?, message, param? } }`.

/** An error in Stripe's shape: `{ error: { type, code?, message, param? } }`. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = "invalid_request_error",
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }

  toJSON() {
    return {
      error: {
        ...(this.code
          ? {
              code: this.code,
              doc_url: `https://stripe.com/docs/error-codes/${this.code.replace(/_/g, "-")}`,
            }
          : {}),
        message: this.message,
        ...(this.param ? { param: this.param } : {}),
        type: this.type,
      },
    };
  }
}

export const missing = (what: string, id: string, param?: string, status = 404) =>
  new StripeApiError(
    status,
    `No such ${what}: '${id}'`,
    "invalid_request_error",
    "resource_missing",
    param ?? "id",
  );
