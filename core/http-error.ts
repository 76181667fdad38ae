/**
 * An answer the API gives on purpose: its status code, its message (shown to the client, whatever
 * the status) and any extra fields of its body. The server's error handler shapes it as its
 * ErrorBody; the code that throws it has logged whatever else is worth knowing.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
