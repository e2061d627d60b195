import { cookies } from '../src/contracts/cookies';
import { cookieUnder } from '../src/shared/cookies/cookie';
import { CookieContentError, detectFormat, readCookies, writeCookies } from '../src/shared/cookies/formats';
import { ApiError } from '../src/shared/errors/api-error';
import type { CookiesRead, CookiesWritten, ShortLaunch } from '../src/host/cookies-schema';
import type { Profile } from '../storage/profiles/schema';
import type { RequestContext } from './context';
import { implement } from './implement';

/** The answer of a host whose browser could not be reached: no browser at all, or one that failed. */
function unreached(result: Extract<CookiesRead | CookiesWritten, { ok: false }>): never {
  if (result.reason === 'browser_missing') throw new ApiError('run.browser_missing', { problem: result.error });
  throw new ApiError('cookies.browser_failed', { error: result.error });
}

/** What a short browser on the stopped profile's folder starts with: its own switches, through its proxy. */
const shortLaunch = async (ctx: RequestContext, profile: Profile): Promise<ShortLaunch> => ({
  args: profile.browser.args,
  proxy: await ctx.store.profiles.proxy(profile.id),
});

export const cookieRoutes = implement(cookies, {
  export: async ({ ctx, params, query, audit }) => {
    const profile = await ctx.store.profiles.get(params.id);
    const read = await ctx.host.cookies.read(profile.id, await shortLaunch(ctx, profile));
    if (!read.ok) unreached(read);
    const kept = query.domain === undefined ? read.cookies : read.cookies.filter((c) => cookieUnder(c, query.domain!));
    // The entry is written before the cookies leave: a read that cannot be audited is refused.
    await ctx.store.profiles.record(audit!, profile.id, {
      format: query.format,
      domain: query.domain ?? null,
      count: kept.length,
      running: read.running,
    });
    return { format: query.format, count: kept.length, content: writeCookies(kept, query.format) };
  },
  import: async ({ ctx, params, body, audit }) => {
    const profile = await ctx.store.profiles.get(params.id);
    const format = body.format === 'auto' ? detectFormat(body.content) : body.format;
    let rows: ReturnType<typeof readCookies>;
    try {
      rows = readCookies(body.content, format, Date.now() / 1000);
    } catch (error) {
      if (!(error instanceof CookieContentError)) throw error;
      throw new ApiError('cookies.content_invalid', { format, problem: error.message });
    }
    const written = await ctx.host.cookies.write(
      profile.id,
      await shortLaunch(ctx, profile),
      rows.cookies.map(({ cookie }) => cookie),
      body.mode,
    );
    if (!written.ok) unreached(written);
    const errors = [
      ...rows.errors,
      ...written.refused.map(({ index, message }) => ({ row: rows.cookies[index]!.row, message })),
    ].sort((a, b) => a.row - b.row);
    const imported = rows.cookies.length - written.refused.length;
    await ctx.store.profiles.record(audit!, profile.id, {
      format,
      mode: body.mode,
      imported,
      replaced: written.replaced,
      errors: errors.length,
      running: written.running,
    });
    return { imported, replaced: written.replaced, errors };
  },
});
