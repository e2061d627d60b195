import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { ApiFailure, type Answer, type Api } from '../api';
import { CopyButton } from '../components/copy';
import { Form, Submit } from '../components/form';
import { ActionNote } from '../components/notes';
import { Facts, Show } from '../components/section';
import { time, yesNo } from '../format';
import { useAction } from '../use-action';
import { useEvery, useLoad } from '../use-load';

type Run = Answer<'GET', '/api/v1/profiles/:id/run'>;

/** A live run is read again this often while its profile is open, so a crash or another client's stop shows. */
const RUN_REFRESH_MS = 5_000;
/** How often a running profile's thumbnail is taken again while it is shown. */
const THUMBNAIL_REFRESH_MS = 3_000;

const STATE_BADGE: Partial<Record<Run['state'], string>> = { running: 'ok', failed: 'error', crashed: 'error' };

/** A run that has not ended: its browser may be alive, so it can be stopped and not started again. */
const isLive = (run: Run | null | undefined): run is Run => !!run && run.ended_at === null;

/**
 * A profile's browser: its latest run (null: it never ran), Start or Stop, the run's DevTools
 * endpoints with copy buttons and, while it runs, a thumbnail of its page. Every route here needs
 * `runtime:control`; without it the read answers 403 and only the scope note shows, no control.
 * `onRunChanged` is told when the run starts, ends or changes state, so that the list's Running column follows.
 */
export function ProfileRun({
  api,
  id,
  headless,
  onRunChanged,
}: {
  api: Api;
  id: string;
  /** The profile's own setting (docs/runs.md#browser-settings): what the Start form's checkbox begins with. */
  headless: boolean;
  onRunChanged: () => void;
}) {
  const latest = useLoad(
    () =>
      api.call('GET', '/api/v1/profiles/:id/run', { params: { id } }).catch((failure: unknown) => {
        if (failure instanceof ApiFailure && failure.status === 404) return null;
        throw failure;
      }),
    id,
  );
  const run = latest.data;
  useEvery(isLive(run) ? RUN_REFRESH_MS : undefined, latest.reload);

  // Which run, in which state (null: none yet; undefined: not read yet).
  const seen = run && `${run.id} ${run.state}`;
  useEffect(() => {
    if (seen !== undefined) onRunChanged();
  }, [seen, onRunChanged]);

  const action = useAction();
  // The run is read again before the action counts as done, so its button gives way at once; after a
  // failure too, which may have changed it (a start that failed is a `failed` run; `run.active` names another's).
  const act = (work: () => Promise<unknown>) =>
    void action.run(async () => {
      try {
        await work();
      } finally {
        await latest.reload();
      }
    });
  // Start and Stop give way to each other, so the pressed button goes: focus moves to the control that
  // now applies instead of being lost to the page.
  const controls = useRef<HTMLDivElement>(null);
  const pressed = useRef(false);
  useEffect(() => {
    if (action.busy) pressed.current = true;
    else if (pressed.current) {
      pressed.current = false;
      if (document.activeElement === document.body) controls.current?.querySelector('button')?.focus();
    }
  }, [action.busy]);

  const start = (headless: boolean) =>
    act(() => api.call('POST', '/api/v1/profiles/:id/start', { params: { id }, body: { headless } }));
  const stop = (force: boolean) =>
    act(() => api.call('POST', '/api/v1/profiles/:id/stop', { params: { id }, body: { force } }));

  return (
    <>
      <h3>Browser</h3>
      <Show loaded={latest} label="the profile's run">
        {(shown) => (
          <>
            {shown === null ? <p>Never started.</p> : <RunFacts run={shown} />}
            <div ref={controls}>
              {isLive(shown) ? (
                <div class="actions">
                  <button type="button" class="quiet" disabled={action.busy} onClick={() => stop(false)}>
                    Stop
                  </button>
                  <button type="button" class="danger" disabled={action.busy} onClick={() => stop(true)}>
                    Force stop
                  </button>
                </div>
              ) : (
                <Form label="Start the browser" onSubmit={(fields) => start(fields.get('headless') === 'on')}>
                  <label>
                    <input type="checkbox" name="headless" defaultChecked={headless} /> Headless (no window)
                  </label>
                  <Submit label="Start" busy={action.busy} />
                </Form>
              )}
            </div>
            <ActionNote action={action} busy={isLive(shown) ? 'Stopping the browser' : 'Starting the browser'} />
            {shown?.state === 'running' && <Thumbnail api={api} id={id} runId={shown.id} />}
          </>
        )}
      </Show>
    </>
  );
}

/** A run's state as a badge: green while it runs, red when it failed or crashed. */
export function RunStateBadge({ state }: { state: Run['state'] }) {
  return <span class={`badge ${STATE_BADGE[state] ?? ''}`}>{state}</span>;
}

function RunFacts({ run }: { run: Run }) {
  const facts: [string, ComponentChildren][] = [
    ['Run', <code>{run.id}</code>],
    ['State', <RunStateBadge state={run.state} />],
    ['Headless', yesNo(run.headless)],
    ['Started', time(run.started_at)],
    ['Browser', run.browser_version ?? 'unknown'],
  ];
  if (run.ws_endpoint !== null) facts.push(['WebSocket endpoint', <Endpoint kind="WebSocket" url={run.ws_endpoint} />]);
  if (run.http_endpoint !== null) facts.push(['HTTP endpoint', <Endpoint kind="HTTP" url={run.http_endpoint} />]);
  if (run.debug_port !== null) facts.push(['DevTools port on 127.0.0.1', run.debug_port]);
  if (run.ended_at !== null) facts.push(['Ended', time(run.ended_at)], ['End reason', run.end_reason ?? 'unknown']);
  if (run.exit_code !== null) facts.push(['Exit code', run.exit_code]);
  if (run.error !== null) facts.push(['Error', <pre>{run.error}</pre>]);
  return <Facts items={facts} />;
}

function Endpoint({ kind, url }: { kind: string; url: string }) {
  return (
    <>
      <code>{url}</code>
      <CopyButton label={`Copy ${kind} endpoint`} value={url} />
    </>
  );
}

/** The running page as an image, taken again every few seconds while it is shown. */
function Thumbnail({ api, id, runId }: { api: Api; id: string; runId: string }) {
  const shot = useLoad(
    () => api.call('GET', '/api/v1/profiles/:id/screenshot', { params: { id } }),
    runId,
    THUMBNAIL_REFRESH_MS,
  );
  return (
    <Show loaded={shot} label="the thumbnail">
      {(picture) => (
        <figure class="thumbnail">
          {/* A data: URL (the CSP's img-src allows it): the PNG never touches the DOM as markup. */}
          <img src={`data:image/png;base64,${picture.png_base64}`} alt="The browser's first page" />
          <figcaption class="muted">
            Taken {time(picture.taken_at)}; taken again every {THUMBNAIL_REFRESH_MS / 1000} seconds.
          </figcaption>
        </figure>
      )}
    </Show>
  );
}
