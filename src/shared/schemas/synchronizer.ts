import { z } from 'zod';
import { Id, uniqueItems } from './ids';

/**
 * The synchronizer (docs/automation.md#synchronizer): one profile's input (the source) mirrored on
 * others (the followers), captured inside the source's pages and replayed by the host over DevTools.
 */

/** `element`: replayed on the element that matches on each follower; `coordinates`: at the same viewport position. */
export const SyncMode = z.enum(['element', 'coordinates']);
export type SyncMode = z.output<typeof SyncMode>;

/** The wait before a follower replays an event, drawn anew for each event and follower. */
const DelayMs = z
  .strictObject({ min: z.int().min(0).max(10_000), max: z.int().min(0).max(10_000) })
  .refine((delay) => delay.min <= delay.max, 'delay_ms.min is above delay_ms.max');

/** What is mirrored; every field optional on a start. */
const OPTIONS = z.strictObject({
  clicks: z.boolean().default(true),
  keys: z
    .boolean()
    .default(true)
    .meta({ description: 'Keys that type no text: Enter, Tab, Backspace, arrows, shortcuts.' }),
  text_input: z
    .boolean()
    .default(true)
    .meta({ description: "The text typed into a field; a password field's text is never captured." }),
  scroll: z.boolean().default(true),
  navigation: z
    .boolean()
    .default(true)
    .meta({ description: "The address bar's navigations and reloads (a click's navigation comes from the click)." }),
  tabs: z.boolean().default(true).meta({ description: 'New and closed tabs.' }),
  delay_ms: DelayMs.default({ min: 0, max: 0 }),
  copy_window_size: z
    .boolean()
    .default(true)
    .meta({ description: "The followers' windows take the source's size at the start." }),
});
export const SyncOptions = OPTIONS.meta({ id: 'SyncOptions' });
export type SyncOptions = z.output<typeof SyncOptions>;

/** `POST /api/v1/automation/synchronizer/start`. */
export const SyncStart = z
  .strictObject({
    source_id: Id,
    follower_ids: uniqueItems(z.array(Id).min(1).max(50), 'a follower is given twice'),
    mode: SyncMode.default('element'),
    options: SyncOptions.prefault({}),
    headless: z
      .boolean()
      .default(false)
      .meta({ description: 'How the profiles that are not running yet are started.' }),
  })
  .refine((start) => !start.follower_ids.includes(start.source_id), {
    message: 'the source cannot follow itself',
    path: ['follower_ids'],
  })
  .meta({ id: 'SyncStart' });
export type SyncStart = z.output<typeof SyncStart>;

/** `POST /api/v1/automation/synchronizer/stop`: the body is optional. */
export const SyncStop = z
  .strictObject({
    stop_browsers: z
      .boolean()
      .default(false)
      .meta({ description: 'Also stop the browsers of the source and the followers.' }),
  })
  .meta({ id: 'SyncStop' });

/** A source tab and the tab that mirrors it on each follower (`target_id` null until the follower has one). */
export const SyncTab = z.object({
  source_target_id: z.string(),
  url: z.string(),
  followers: z.array(z.object({ profile_id: z.string(), target_id: z.string().nullable() })),
});

/** One follower's counters, since it joined. */
export const SyncFollowerEvents = z.object({
  profile_id: z.string(),
  alive: z.boolean().meta({ description: 'False once its browser is gone; its events are then dropped.' }),
  captured: z.int().meta({ description: 'Events captured on the source while it followed.' }),
  replayed: z.int(),
  missed: z.int().meta({ description: 'Events it could not replay: no matching element, or DevTools refused.' }),
  dropped: z.int().meta({ description: 'Events not replayed because its browser was gone or it fell too far behind.' }),
  last_event_at: z.int().nullable().meta({ description: 'When it last replayed an event (epoch ms).' }),
});

/** The last thing that went wrong; the synchronizer goes on for the followers it still has. */
export const SyncError = z.object({
  code: z.enum(['synchronizer.follower_lost', 'synchronizer.element_missing', 'synchronizer.source_lost']),
  message: z.string(),
  profile_id: z.string().nullable(),
  at: z.int(),
});

/**
 * What the synchronizer reports. While idle: not running, with the last session's fields (or the
 * defaults before any), so a session that ended on its own still shows why.
 */
export const SynchronizerStatus = z
  .object({
    running: z.boolean(),
    source_id: z.string().nullable(),
    follower_ids: z.array(z.string()),
    mode: SyncMode,
    // Its own id: the answer's options are all there, the start's may be left out.
    options: OPTIONS.meta({ id: 'SyncOptionsInEffect' }),
    tabs: z.array(SyncTab),
    events: z.array(SyncFollowerEvents),
    error: SyncError.nullable(),
  })
  .meta({ id: 'SynchronizerStatus' });
export type SynchronizerStatus = z.output<typeof SynchronizerStatus>;

/** The status before any session. */
export const IDLE_SYNCHRONIZER: SynchronizerStatus = {
  running: false,
  source_id: null,
  follower_ids: [],
  mode: 'element',
  options: SyncOptions.parse({}),
  tabs: [],
  events: [],
  error: null,
};
