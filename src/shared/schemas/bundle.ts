import { z } from 'zod';
import { Base64Bytes, Base64Out, base64In } from './base64';
import { Id, UUID } from './ids';
import { ProxyUpstream } from './proxy';

/**
 * A team profile's browser data as it travels between machines (docs/teams.md#what-travels): the
 * machine whose run ends packs the profile's folder, encrypts it with the profile's bundle key, and
 * sends it to the team in parts; the team keeps the newest version in its bucket and this record in
 * its store. Each part is AES-256-GCM on its own, so a part is at most this many bytes of ciphertext.
 */
export const BUNDLE_PART_BYTES = 1024 * 1024;
/** A part as base64 in its request: at most this many characters. */
const PART_BASE64_CHARS = 4 * Math.ceil(BUNDLE_PART_BYTES / 3);
/** How large a bundle may be when the team service sets nothing else (`LPA_BUNDLE_MAX_BYTES`). */
export const DEFAULT_BUNDLE_MAX_BYTES = 256 * 1024 * 1024;
/** The most parts a bundle can have, whatever the team's limit (1 GiB). */
export const BUNDLE_MAX_PARTS = 1024;

const Sha256 = z
  .string()
  .length(64)
  .regex(/^[0-9a-f]{64}$/)
  .meta({ description: 'SHA-256 of the encrypted parts, in order, as lower-case hex.' });
const RunId = z.string().max(36).regex(UUID);

/** The newest version of a team profile's browser data, as the team records it. */
export const Bundle = z
  .object({
    profile_id: z.string(),
    run_id: z.string().meta({ description: 'The run whose end packed it.' }),
    machine_label: z.string(),
    fencing: z.int().meta({ description: 'The fencing number of the lease it was uploaded under.' }),
    parts: z.int(),
    size: z.int().meta({ description: 'Bytes of encrypted data, all parts.' }),
    sha256: Sha256,
    uploaded_at: z.int(),
  })
  .meta({ id: 'Bundle' });
export type Bundle = z.output<typeof Bundle>;

/** What the run that holds a profile's lease gets before its browser starts: the key, the version to unpack, the proxy. */
export const BundleOpened = z
  .object({
    key: Base64Out.meta({ description: "The profile's bundle key (32 bytes), for the holder of its lease only." }),
    bundle: Bundle.nullable(),
    max_bytes: z.int().meta({ description: "The team's limit on a bundle's size." }),
    proxy: ProxyUpstream.nullable().meta({
      description:
        "The profile's proxy with its password opened, for this run's browser alone (docs/proxies.md); null for none.",
    }),
  })
  .meta({ id: 'BundleOpened' });
export type BundleOpened = z.output<typeof BundleOpened>;

/** A part's place in its bundle: the profile and the part's index, from 0. */
export const BundlePartParams = z.object({
  id: Id,
  part: z
    .string()
    .regex(/^(?:0|[1-9][0-9]{0,3})$/)
    .transform(Number)
    .pipe(z.int().max(BUNDLE_MAX_PARTS - 1)),
});

/** One part of an upload, sent by the run that holds the lease under `fencing`. */
export const BundlePartWrite = z
  .object({ run_id: RunId, fencing: z.int().min(1), data: base64In(PART_BASE64_CHARS) })
  .strict()
  .meta({ id: 'BundlePartWrite' });

export const BundlePartQuery = z.object({ run_id: RunId }).strict();

export const BundlePart = z.object({ data: Base64Out }).meta({ id: 'BundlePart' });

/** The end of an upload: what the parts add up to. The team checks it before it keeps the version. */
export const BundleCommit = z
  .object({
    run_id: RunId,
    fencing: z.int().min(1),
    parts: z.int().min(1).max(BUNDLE_MAX_PARTS),
    size: z.int().min(1),
    sha256: Sha256,
  })
  .strict()
  .meta({ id: 'BundleCommit' });
export type BundleCommit = z.output<typeof BundleCommit>;

/** Bundle part sizes in the request body: base64 of a whole part, the other fields and some white space. */
export const BUNDLE_PART_BODY_LIMIT = PART_BASE64_CHARS + 4 * 1024;

/*
 * The host's side of a bundle (src/host/node/browsers/profile-bundle.ts): the machine that holds the
 * lease packs and sends, or fetches and unpacks, the profile's folder through its own team link.
 */

/** What a pack needs: the run and fencing number it uploads under, the profile's key and the team's limit. */
export const BundleSend = z.object({
  run_id: z.string(),
  fencing: z.int(),
  key: Base64Bytes,
  max_bytes: z.int(),
});
export type BundleSend = z.output<typeof BundleSend>;

/** What an unpack needs: the run that holds the lease, the profile's key and the version to fetch. */
export const BundleFetch = z.object({ run_id: z.string(), key: Base64Bytes, bundle: Bundle });
export type BundleFetch = z.output<typeof BundleFetch>;

/** A pack's outcome: what its parts add up to, for the commit; or why it stopped (a team's refusal keeps its code). */
export const BundlePacked = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), parts: z.int(), size: z.int(), sha256: z.string() }),
  z.object({ ok: z.literal(false), code: z.string().nullable(), error: z.string() }),
]);
export type BundlePacked = z.output<typeof BundlePacked>;

/** An unpack's outcome: `fetched` false when the folder already held that version. */
export const BundleUnpacked = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), fetched: z.boolean() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type BundleUnpacked = z.output<typeof BundleUnpacked>;
