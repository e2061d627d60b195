import { cookies } from '../src/contracts/cookies';
import { cookieUnder } from '../src/shared/cookies/cookie';
import { CookieContentError, detectFormat, readCookies, writeCookies } from '../src/shared/cookies/formats';
import { ApiError } from '../src/shared/errors/api-error';
import type { CookiesRead, CookiesWritten, ShortLaunch } from '../src/host/cookies-schema';
import type { Profile } from '../storage/profiles/schema';
import type { RequestContext } from './context';
import { implement } from './implement';

/**
 * A cookie operation of the host on the profile's browser: its running one, or, only when it has none,
 * a short browser on its folder, with its own switches and through its proxy. The proxy's password is
 * opened for that second call alone (a browser that started in between is used all the same). A
 * browser that could not be reached is `run.browser_missing` or `cookies.browser_failed`.
 */
async function onBrowser<R extends CookiesRead | CookiesWritten>(
  ctx: RequestContext,
  profile: Profile,
  operation: (short: ShortLaunch | null) => Promise<R>,
): Promise<Extract<R, { ok: true }>> {
  let result = await operation(null);
  if (!result.ok && result.reason === 'not_running')
    result = await operation({ args: profile.browser.args, proxy: await ctx.store.profiles.proxy(profile.id) });
  if (result.ok) return result as Extract<R, { ok: true }>;
  if (result.reason === 'browser_missing') throw new ApiError('run.browser_missing', { problem: result.error });
  throw new ApiError('cookies.browser_failed', { error: result.error });
}

export const cookieRoutes = implement(cookies, {
  export: async ({ ctx, params, query, audit }) => {
    const profile = await ctx.store.profiles.get(params.id);
    const read = await onBrowser(ctx, profile, (short) => ctx.host.cookies.read(profile.id, short));
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
    const written = await onBrowser(ctx, profile, (short) =>
      ctx.host.cookies.write(
        profile.id,
        short,
        rows.cookies.map(({ cookie }) => cookie),
        body.mode,
      ),
    );
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
