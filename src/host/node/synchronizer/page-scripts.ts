import type { SyncOptions } from '../../../shared/schemas/synchronizer';

/**
 * The scripts the synchronizer runs inside pages, always in its own isolated world (a world of the
 * page's DOM that the page's scripts cannot reach): nothing is added to the page's globals, and the
 * capture's listeners are invisible to it. They are plain JavaScript texts, since they run in the
 * browser and not in LPA's process.
 */

/** The isolated world's name in every page the synchronizer touches. */
export const SYNC_WORLD = 'lpa-synchronizer';

/**
 * What a captured event says of its element, so that a follower whose layout differs finds the same
 * one: its tag, id, name, role, label and text, then its CSS path. An inner element of a link or a
 * button stands for the link or the button. A field's value is never part of it.
 */
const DESCRIBE = `(node) => {
  if (!(node instanceof Element)) return null;
  const el = node.closest('a,button,input,select,textarea,label,summary,option,[role],[onclick]') || node;
  const steps = [];
  for (let n = el; n && n.nodeType === 1 && n !== document.documentElement; n = n.parentElement) {
    let i = 1;
    for (let s = n.previousElementSibling; s; s = s.previousElementSibling) if (s.tagName === n.tagName) i++;
    steps.unshift(n.tagName.toLowerCase() + ':nth-of-type(' + i + ')');
  }
  const text = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement
    ? '' : (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 80);
  return {
    tag: el.tagName.toLowerCase(),
    id: el.id || null,
    name: el.getAttribute('name'),
    role: el.getAttribute('role'),
    label: el.getAttribute('aria-label') || el.getAttribute('placeholder') || el.getAttribute('title'),
    text: text || null,
    path: ['html', ...steps].join(' > '),
  };
}`;

/** A descriptor as DESCRIBE makes it. */
export interface ElementDescriptor {
  tag: string;
  id: string | null;
  name: string | null;
  role: string | null;
  label: string | null;
  text: string | null;
  path: string;
}

/** An event as the capture reports it through its binding. */
export type CapturedEvent =
  | { kind: 'click'; x: number; y: number; count: number; target: ElementDescriptor | null }
  | { kind: 'key'; key: string; code: string; keyCode: number; modifiers: number; target: ElementDescriptor | null }
  | { kind: 'text'; text: string; target: ElementDescriptor | null }
  | { kind: 'scroll'; x: number; y: number; fx: number; fy: number };

/**
 * The capture, run in the source's isolated world of each document: trusted input only (a page's own
 * synthetic events are its scripts', which run on the followers too). Printable keys are the text
 * input's; a password field's text is never sent, only its special keys (Enter, Backspace…). The
 * listeners are added once per document; each session sets its own binding and options, read at
 * each event, so a document captured by an ended session is captured by the next one as it asks.
 */
export function captureScript(binding: string, options: SyncOptions): string {
  return `(() => {
  globalThis.__lpaSession = { binding: ${JSON.stringify(binding)}, options: ${JSON.stringify(options)} };
  if (globalThis.__lpaCapturing) return;
  globalThis.__lpaCapturing = true;
  const on = (option) => globalThis.__lpaSession.options[option];
  const send = (event) => {
    const bound = globalThis[globalThis.__lpaSession.binding];
    if (typeof bound === 'function') bound(JSON.stringify(event));
  };
  const describe = ${DESCRIBE};
  const secret = (el) => el instanceof HTMLInputElement && el.type === 'password';
  const listen = (type, option, fn) =>
    window.addEventListener(type, (e) => { if (e.isTrusted && on(option)) fn(e); }, { capture: true, passive: true });
  listen('click', 'clicks', (e) => send({ kind: 'click', x: e.clientX, y: e.clientY, count: e.detail || 1, target: describe(e.target) }));
  listen('keydown', 'keys', (e) => {
    if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) return;
    if (e.key === 'Process' || e.key === 'Unidentified' || e.key === 'Dead') return;
    const modifiers = (e.altKey ? 1 : 0) | (e.ctrlKey ? 2 : 0) | (e.metaKey ? 4 : 0) | (e.shiftKey ? 8 : 0);
    send({ kind: 'key', key: e.key, code: e.code, keyCode: e.keyCode, modifiers, target: describe(e.target) });
  });
  listen('input', 'text_input', (e) => {
    if (typeof e.data !== 'string' || !e.inputType.startsWith('insert') || secret(e.target)) return;
    send({ kind: 'text', text: e.data, target: describe(e.target) });
  });
  let timer = 0;
  listen('scroll', 'scroll', (e) => {
    if (e.target !== document || timer) return;
    timer = setTimeout(() => {
      timer = 0;
      const root = document.scrollingElement || document.documentElement;
      const w = root.scrollWidth - innerWidth, h = root.scrollHeight - innerHeight;
      send({ kind: 'scroll', x: scrollX, y: scrollY, fx: w > 0 ? scrollX / w : 0, fy: h > 0 ? scrollY / h : 0 });
    }, 50);
  });
})()`;
}

/**
 * The element of a follower's document that a descriptor names: by id, then name, then label, role
 * and text, then the CSS path; each must have the same tag. Then `action` on it: `point` scrolls it
 * into view and answers its centre in viewport coordinates (where the follower's click goes), `focus`
 * focuses it (where the text goes). Null when nothing matches.
 */
export function resolveScript(target: ElementDescriptor, action: 'point' | 'focus'): string {
  return `((d, action) => {
  const same = (el) => el && el.tagName.toLowerCase() === d.tag ? el : null;
  const norm = (s) => (s || '').trim().replace(/\\s+/g, ' ').slice(0, 80) || null;
  const byAttr = (attr, value) => value == null ? null : same(document.querySelector(d.tag + '[' + attr + '="' + CSS.escape(value) + '"]'));
  const byContent = () => {
    if (!d.text && !d.label && !d.role) return null;
    for (const el of document.querySelectorAll(d.tag)) {
      const label = el.getAttribute('aria-label') || el.getAttribute('placeholder') || el.getAttribute('title');
      const text = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement ? null : norm(el.textContent);
      if ((d.text === null || d.text === text) && (d.label === null || d.label === label) && (d.role === null || d.role === el.getAttribute('role'))) return el;
    }
    return null;
  };
  const el = (d.id && same(document.getElementById(d.id))) || byAttr('name', d.name) || byContent() || same(document.querySelector(d.path));
  if (!el) return null;
  if (action === 'focus') { if (document.activeElement !== el) el.focus(); return {}; }
  el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
})(${JSON.stringify(target)}, ${JSON.stringify(action)})`;
}

/** A follower's document scrolled as the source's: to the same offsets, or (element mode) the same fraction of its length. */
export function scrollScript(event: Extract<CapturedEvent, { kind: 'scroll' }>, byFraction: boolean): string {
  return byFraction
    ? `(() => { const root = document.scrollingElement || document.documentElement; scrollTo(${event.fx} * (root.scrollWidth - innerWidth), ${event.fy} * (root.scrollHeight - innerHeight)); })()`
    : `scrollTo(${event.x}, ${event.y})`;
}
