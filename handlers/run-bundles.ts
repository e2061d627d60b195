import { createHash } from 'node:crypto';
import { runBundles } from '../src/contracts/run-bundles';
import { ApiError } from '../src/shared/errors/api-error';
import { BUNDLE_PART_BYTES, DEFAULT_BUNDLE_MAX_BYTES } from '../src/shared/schemas/bundle';
import { fromBase64, toBase64 } from '../src/shared/base64';
import { bundleFolder } from '../storage/bundles/bundles';
import type { RequestContext } from './context';
import { implement } from './implement';

const maxBytes = (ctx: RequestContext) => ctx.config.bundleMaxBytes ?? DEFAULT_BUNDLE_MAX_BYTES;

/**
 * A team profile's browser data, for the team service only (src/contracts/run-bundles.ts): the parts
 * are objects of the team's bucket (the host's `bundles`), the newest version's record is in the store.
 */
export const runBundleRoutes = implement(runBundles, {
  open: async ({ ctx, params, body }) => ({
    key: toBase64(await ctx.store.bundles.key(params.id, body.run_id)),
    bundle: await ctx.store.bundles.current(params.id),
    max_bytes: maxBytes(ctx),
    // Opened in the team's vault, for the lease holder's browser only: no machine holds that vault's key.
    proxy: await ctx.store.profiles.proxy(params.id),
  }),
  readPart: async ({ ctx, params, query }) => {
    await ctx.store.bundles.holder(params.id, query.run_id);
    const bundle = await ctx.store.bundles.current(params.id);
    const data =
      bundle && params.part < bundle.parts ? await ctx.host.bundles.get(partName(bundle, params.part)) : null;
    if (!data) throw new ApiError('resource.not_found', { resource: 'bundle part', id: `${params.id}/${params.part}` });
    return { data: toBase64(data) };
  },
  writePart: async ({ ctx, params, body }) => {
    const lease = await ctx.store.bundles.writer(params.id, body.run_id, body.fencing);
    if (params.part * BUNDLE_PART_BYTES >= maxBytes(ctx))
      throw new ApiError('bundle.too_large', { profile_id: params.id, max_bytes: maxBytes(ctx) });
    await ctx.host.bundles.put(partName({ ...lease, profile_id: params.id }, params.part), fromBase64(body.data));
    return { ok: true as const };
  },
  commit: async ({ ctx, params, body, audit }) => {
    const upload = { profile_id: params.id, run_id: body.run_id, fencing: body.fencing };
    await ctx.store.bundles.writer(params.id, body.run_id, body.fencing);
    const refuse = async (error: ApiError): Promise<never> => {
      await ctx.host.bundles.remove(bundleFolder(upload));
      throw error;
    };
    if (body.size > maxBytes(ctx))
      return refuse(new ApiError('bundle.too_large', { profile_id: params.id, max_bytes: maxBytes(ctx) }));
    // The parts are read back as the bucket keeps them: what the next machine will fetch is what is checked.
    const hash = createHash('sha256');
    let size = 0;
    for (let part = 0; part < body.parts; part++) {
      const data = await ctx.host.bundles.get(partName(upload, part));
      if (!data) return refuse(corrupt(params.id, `part ${part} of ${body.parts} was never received`));
      hash.update(data);
      size += data.length;
    }
    if (size !== body.size) return refuse(corrupt(params.id, `the parts hold ${size} bytes, not ${body.size}`));
    if (hash.digest('hex') !== body.sha256)
      return refuse(corrupt(params.id, "the parts' SHA-256 is not the one named"));
    const { bundle, replaced } = await ctx.store.bundles.commit(audit!, params.id, body);
    if (replaced) await ctx.host.bundles.remove(bundleFolder(replaced));
    return bundle;
  },
});

const partName = (version: Parameters<typeof bundleFolder>[0], part: number) => `${bundleFolder(version)}${part}`;

const corrupt = (profileId: string, problem: string) =>
  new ApiError('bundle.corrupt', { profile_id: profileId, problem });
