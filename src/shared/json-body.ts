/**
 * A JSON answer whose bytes are ready: `body` is the text of one JSON value of type `T`, or a
 * stream of its UTF-8 bytes written while it is sent. A store read answers with its text, made once
 * in the store, so the page crosses the RPC as one string instead of a structured clone of its rows
 * that the worker would then serialise again; a handler streams where building the whole text first
 * would hold too much memory (the audit export). The pipeline sends it as it is, with the headers of
 * any JSON answer.
 */
export class JsonBody<T> {
  /** Only for type checking: the value the bytes spell. */
  declare readonly value?: T;

  constructor(readonly body: string | ReadableStream<Uint8Array>) {}
}
