/** What a test inside workerd may ask the test-only TEST_FS binding to do in the data root. */
export type FixtureOp =
  | { op: 'write'; path: string; text: string; repeat?: number; mtime?: number }
  | { op: 'symlink'; path: string; target: string }
  | { op: 'link'; path: string; target: string }
  | { op: 'fifo'; path: string }
  | { op: 'read'; path: string }
  | { op: 'remove'; path: string };
