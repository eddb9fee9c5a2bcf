/** An expected failure of the local stack: printed as one line, never as a stack trace. */
export class StackError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = "StackError";
  }
}
