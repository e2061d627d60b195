import { ApiError } from '../../src/shared/errors/api-error';
import { deleteChunks, getChunks, putChunks } from '../chunks';
import type { StoreContext } from '../context';
import type { FlowStep } from '../../src/shared/schemas/flow-steps';
import type { BundledFlow, Flow, FlowPatch, FlowSummary, FlowValueInput, NewFlow } from './schema';

/** What the chunk store holds for a flow; a protected value only as vault ciphertext. */
interface FlowDocument {
  /** As saved: steps saved before the step vocabulary (#32) may not be steps of it (storage/flows/runnable.ts). */
  steps: FlowStep[];
  values: { name: string; protected: boolean; value: string | null; sealed: string | null }[];
}

interface FlowRow {
  id: string;
  name: string;
  group_name: string | null;
  description: string | null;
  is_template: number;
  dependencies: string;
  step_count: number;
  value_count: number;
  created_at: number;
  updated_at: number;
}

const owner = (id: string) => `flow:${id}`;
const valueAad = (id: string, name: string) => `flow:${id}:value:${name}`;

function summary(row: FlowRow): FlowSummary {
  return {
    id: row.id,
    name: row.name,
    group: row.group_name,
    description: row.description,
    is_template: row.is_template === 1,
    dependencies: JSON.parse(row.dependencies) as string[],
    step_count: row.step_count,
    value_count: row.value_count,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The ids of `ids` that name no flow. One bound parameter, however many ids. */
export function unknownFlowIds(ctx: StoreContext, ids: readonly string[]): string[] {
  return ctx.db
    .all<{ value: string }>(
      'SELECT value FROM json_each(?) WHERE value NOT IN (SELECT id FROM automation_flows) ORDER BY key',
      JSON.stringify(ids),
    )
    .map((r) => r.value);
}

/**
 * Flows in the order `lpa team push` sends them, `limit` of them after the first `offset`: oldest
 * first, except that a flow comes after the flows it needs, which an edit can make newer than it
 * (and which a share's import gives one creation time with random ids). Depth first without
 * recursion; a flow already on the path (a cycle, which no write lets in) is not waited for.
 */
export function flowSlice(ctx: StoreContext, offset: number, limit: number): FlowSummary[] {
  const needs = new Map(
    ctx.db
      .all<{ id: string; dependencies: string }>(
        'SELECT id, dependencies FROM automation_flows ORDER BY created_at, id',
      )
      .map((row) => [row.id, JSON.parse(row.dependencies) as string[]] as const),
  );
  const order: string[] = [];
  const seen = new Set<string>();
  for (const root of needs.keys()) {
    if (seen.has(root)) continue;
    seen.add(root);
    const path = [{ id: root, next: 0 }];
    while (path.length > 0) {
      const at = path[path.length - 1]!;
      const dependency = needs.get(at.id)![at.next++];
      if (dependency === undefined) {
        order.push(at.id);
        path.pop();
      } else if (needs.has(dependency) && !seen.has(dependency)) {
        seen.add(dependency);
        path.push({ id: dependency, next: 0 });
      }
    }
  }
  return flowRows(ctx, order.slice(offset, offset + limit));
}

export function flowRows(ctx: StoreContext, ids?: readonly string[]): FlowSummary[] {
  const rows = ids
    ? ctx.db.all<FlowRow>(
        'SELECT f.* FROM json_each(?) j JOIN automation_flows f ON f.id = j.value ORDER BY j.key',
        JSON.stringify(ids),
      )
    : ctx.db.all<FlowRow>('SELECT * FROM automation_flows ORDER BY created_at, id');
  return rows.map(summary);
}

/**
 * Values as the flow's document keeps them, a protected one sealed. A value given without `value`
 * keeps the one `before` holds under its name (an edit): a protected one its sealed secret, a plain
 * one its text (sealed now if it becomes protected). A protected value is never unsealed into a plain
 * one, so one made plain without a new value has none.
 */
function storedValues(
  ctx: StoreContext,
  id: string,
  inputs: readonly FlowValueInput[],
  before: FlowDocument['values'] = [],
): FlowDocument['values'] {
  const stored = new Map(before.map((v) => [v.name, v]));
  return inputs.map((v) => {
    const isProtected = v.protected ?? false;
    const kept = v.value === undefined ? stored.get(v.name) : undefined;
    if (kept?.protected && isProtected) return { ...kept };
    const value = v.value ?? (kept?.protected === false ? kept.value : null);
    return {
      name: v.name,
      protected: isProtected,
      value: isProtected ? null : value,
      sealed: isProtected && value !== null ? ctx.vault.seal(value, valueAad(id, v.name)) : null,
    };
  });
}

/**
 * Writes a new flow; its dependencies must already be ids of flows (checked by the caller). A flow
 * pushed from another store (storage/transfer) keeps its id and its times.
 */
export function insertFlow(
  ctx: StoreContext,
  input: NewFlow,
  id: string = crypto.randomUUID(),
  times: { created_at: number; updated_at: number } = { created_at: ctx.now(), updated_at: ctx.now() },
): FlowSummary {
  const values = storedValues(ctx, id, input.values ?? []);
  const document: FlowDocument = { steps: input.steps, values };
  const flow: FlowSummary = {
    id,
    name: input.name,
    group: input.group ?? null,
    description: input.description ?? null,
    is_template: input.is_template ?? false,
    dependencies: input.dependencies ?? [],
    step_count: input.steps.length,
    value_count: values.length,
    ...times,
  };
  ctx.db.run(
    `INSERT INTO automation_flows (id, name, group_name, description, is_template, dependencies, step_count, value_count,
       created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    flow.id,
    flow.name,
    flow.group,
    flow.description,
    flow.is_template ? 1 : 0,
    JSON.stringify(flow.dependencies),
    flow.step_count,
    flow.value_count,
    flow.created_at,
    flow.updated_at,
  );
  putChunks(ctx.db, owner(id), JSON.stringify(document));
  return flow;
}

/**
 * Applies an edit to a flow (its new dependencies checked by the caller): the given fields replace
 * the stored ones, the document is written again whole.
 */
export function updateFlow(ctx: StoreContext, current: FlowSummary, patch: FlowPatch): FlowSummary {
  const before = flowDocument(ctx, current.id);
  const document: FlowDocument = {
    steps: patch.steps ?? before.steps,
    values: patch.values ? storedValues(ctx, current.id, patch.values, before.values) : before.values,
  };
  const flow: FlowSummary = {
    ...current,
    name: patch.name ?? current.name,
    group: patch.group === undefined ? current.group : patch.group,
    description: patch.description === undefined ? current.description : patch.description,
    is_template: patch.is_template ?? current.is_template,
    dependencies: patch.dependencies ?? current.dependencies,
    step_count: document.steps.length,
    value_count: document.values.length,
    updated_at: ctx.now(),
  };
  ctx.db.run(
    `UPDATE automation_flows SET name = ?, group_name = ?, description = ?, is_template = ?, dependencies = ?,
       step_count = ?, value_count = ?, updated_at = ? WHERE id = ?`,
    flow.name,
    flow.group,
    flow.description,
    flow.is_template ? 1 : 0,
    JSON.stringify(flow.dependencies),
    flow.step_count,
    flow.value_count,
    flow.updated_at,
    flow.id,
  );
  putChunks(ctx.db, owner(flow.id), JSON.stringify(document));
  return flow;
}

export function removeFlow(ctx: StoreContext, id: string): void {
  deleteChunks(ctx.db, owner(id));
  ctx.db.run('DELETE FROM automation_flows WHERE id = ?', id);
}

/** The ids of the flows that list `id` among their dependencies. */
export function dependentsOf(ctx: StoreContext, id: string): string[] {
  return ctx.db
    .all<{ id: string }>(
      'SELECT DISTINCT f.id FROM automation_flows f, json_each(f.dependencies) d WHERE d.value = ? ORDER BY f.id',
      id,
    )
    .map((r) => r.id);
}

function flowDocument(ctx: StoreContext, id: string): FlowDocument {
  return JSON.parse(getChunks(ctx.db, owner(id))!) as FlowDocument;
}

function withoutCounts({ step_count: _s, value_count: _v, ...rest }: FlowSummary) {
  return rest;
}

export function readFlow(ctx: StoreContext, summaryRow: FlowSummary): Flow {
  const document = flowDocument(ctx, summaryRow.id);
  return {
    ...withoutCounts(summaryRow),
    steps: document.steps,
    values: document.values.map((v) => ({
      name: v.name,
      value: v.protected ? null : v.value,
      protected: v.protected,
      value_set: v.protected ? v.sealed !== null : v.value !== null,
    })),
  };
}

/** A protected value in plaintext, for the one step of a run that uses it (never answered); null when none is set. */
export function protectedValue(ctx: StoreContext, id: string, name: string): string | null {
  const value = flowDocument(ctx, id).values.find((v) => v.name === name && v.protected);
  return value?.sealed ? ctx.vault.open(value.sealed, valueAad(id, name)) : null;
}

/** A flow for a share bundle; protected values are opened only when the share carries secrets. */
export function bundleFlow(ctx: StoreContext, summaryRow: FlowSummary, includeSecrets: boolean): BundledFlow {
  const document = flowDocument(ctx, summaryRow.id);
  const { created_at: _c, updated_at: _u, ...fields } = withoutCounts(summaryRow);
  return {
    ...fields,
    steps: document.steps,
    values: document.values.map((v) => ({
      name: v.name,
      protected: v.protected,
      value: !v.protected
        ? v.value
        : includeSecrets && v.sealed !== null
          ? ctx.vault.open(v.sealed, valueAad(summaryRow.id, v.name))
          : null,
    })),
  };
}

/** A flow as `lpa team push` carries it: a bundled flow with every protected value opened, and its times. */
export function plainFlow(
  ctx: StoreContext,
  summaryRow: FlowSummary,
): BundledFlow & { created_at: number; updated_at: number } {
  return { ...bundleFlow(ctx, summaryRow, true), created_at: summaryRow.created_at, updated_at: summaryRow.updated_at };
}

/**
 * The shortest cycle that `id` depending on `dependencies` would close, as `[id, …, id]` (a flow
 * listing itself: `[id, id]`); null when there is none. Walks every flow's dependencies breadth
 * first, without recursion, so a long chain cannot overflow the stack.
 */
export function dependencyCycle(ctx: StoreContext, id: string, dependencies: readonly string[]): string[] | null {
  const needs = new Map<string, readonly string[]>(
    ctx.db
      .all<{ id: string; dependencies: string }>('SELECT id, dependencies FROM automation_flows')
      .map((row) => [row.id, JSON.parse(row.dependencies) as string[]]),
  );
  needs.set(id, dependencies);
  /** Each flow reached, with the flow it was reached from. */
  const reachedFrom = new Map<string, string>();
  const queue = [id];
  for (let at = 0; at < queue.length; at++) {
    const from = queue[at]!;
    for (const next of needs.get(from) ?? []) {
      if (next === id) {
        const path = [from];
        while (path[0] !== id) path.unshift(reachedFrom.get(path[0]!)!);
        return [...path, id];
      }
      if (reachedFrom.has(next)) continue;
      reachedFrom.set(next, from);
      queue.push(next);
    }
  }
  return null;
}

export function assertFlowsExist(ctx: StoreContext, ids: readonly string[]): void {
  const unknown = unknownFlowIds(ctx, ids);
  if (unknown.length > 0) throw new ApiError('flows.unknown', { ids: unknown });
}
