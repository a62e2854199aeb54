// The tools' expected failures: a message for the operator, never a stack trace. The CLI prints the message
// and exits 1; anything else is a bug and keeps its stack.
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

/** A dump file that cannot be read as mongodump writes it: names the file and, where known, the byte offset. */
export class DumpFormatError extends ToolError {
  constructor(
    readonly file: string,
    readonly offset: number | undefined,
    readonly detail: string,
  ) {
    super(`${file}${offset === undefined ? '' : ` at byte ${offset}`}: ${detail}`);
    this.name = 'DumpFormatError';
  }
}
