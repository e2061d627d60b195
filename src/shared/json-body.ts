/**
 * A JSON answer written while it is sent: `body` is a stream of the UTF-8 bytes of one JSON value of
 * type `T`, for a handler where building the whole text first would hold too much memory (the audit
 * export). The pipeline sends it as it is, with the headers of any JSON answer.
 */
export class JsonBody<T> {
  /** Only for type checking: the value the bytes spell. */
  declare readonly value?: T;

  constructor(readonly body: ReadableStream<Uint8Array>) {}
}
