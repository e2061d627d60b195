/**
 * A JSON answer that is written while it is sent: `body` yields the UTF-8 bytes of one JSON value
 * of type `T`. A handler returns one where building the whole text first would hold too much memory
 * (the audit export); the pipeline sends it as it is, with the headers of any JSON answer.
 */
export class StreamedJson<T> {
  /** Only for type checking: the value the bytes spell. */
  declare readonly value?: T;

  constructor(readonly body: ReadableStream<Uint8Array>) {}
}
