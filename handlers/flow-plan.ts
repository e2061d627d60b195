import { ApiError } from '../src/shared/errors/api-error';
import { FlowStep, referencedNames, resolveStep } from '../src/shared/schemas/flow-steps';
import type { AuditContext } from '../storage/audit/entry';
import type { Flow } from '../storage/flows/schema';
import type { RequestContext } from './context';

/** The most steps a job runs on each profile, dependencies and `run_flow` expanded. */
export const MAX_PLAN_STEPS = 10_000;

/** A step of a job, in the flow it belongs to: its `${name}` values are resolved when it runs, never before. */
export interface PlannedStep {
  flow: Flow;
  step: Exclude<FlowStep, { type: 'run_flow' }>;
}

/**
 * Where a `${name}` of a flow comes from, in order: the run request's values, the flow's own value
 * (a protected one opened only now, for the step that uses it), the global of that name (read, and
 * audited as a read, now too). Null when none of them has it.
 */
export class FlowValues {
  constructor(
    private readonly ctx: Pick<RequestContext, 'store'>,
    private readonly audit: AuditContext,
    private readonly request: Readonly<Record<string, string>>,
    private readonly globals: ReadonlySet<string>,
  ) {}

  /** Whether a run of `flow` could resolve `name`: what the job checks before it starts. */
  has(flow: Flow, name: string): boolean {
    return (
      Object.hasOwn(this.request, name) ||
      flow.values.some((value) => value.name === name && value.value_set) ||
      this.globals.has(name)
    );
  }

  /** The value of `name` in `flow`; `secret` says it is protected (never to be logged). */
  async of(flow: Flow, name: string): Promise<{ value: string; secret: boolean } | null> {
    if (Object.hasOwn(this.request, name)) return { value: this.request[name]!, secret: false };
    const own = flow.values.find((value) => value.name === name && value.value_set);
    if (own && !own.protected) return { value: own.value!, secret: false };
    if (own) {
      const value = await this.ctx.store.flows.protectedValue(flow.id, name);
      if (value !== null) return { value, secret: true };
    }
    if (!this.globals.has(name)) return null;
    const global = await this.ctx.store.globals
      .read({ ...this.audit, action: 'globals.read' }, name)
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.code === 'resource.not_found') return null;
        throw error;
      });
    return global && { value: global.value, secret: false };
  }

  /** The step with its values in it, and the protected ones among them (to keep out of messages). */
  async resolve<S extends FlowStep>(flow: Flow, step: S): Promise<{ step: S; secrets: string[] }> {
    const values = new Map<string, string>();
    const secrets: string[] = [];
    for (const name of referencedNames(step)) {
      const found = await this.of(flow, name);
      if (found === null) throw new ApiError('flows.missing_values', { missing: [{ flow_id: flow.id, name }] });
      values.set(name, found.value);
      if (found.secret) secrets.push(found.value);
    }
    return { step: resolveStep(step, (name) => values.get(name)!), secrets };
  }
}

/**
 * A flow's run as each profile runs it, worked out before anything starts: the flow's dependencies
 * first (each once, in the order it lists them, theirs before theirs), then its steps, a `run_flow`
 * replaced by that flow's steps. Refused as a whole when a flow is unknown, has a step that is not of
 * the vocabulary, takes part in a cycle, or names a value that nothing provides.
 */
export async function planRun(
  ctx: Pick<RequestContext, 'store'>,
  flowId: string,
  values: FlowValues,
): Promise<PlannedStep[]> {
  const loaded = new Map<string, Flow>();
  const done = new Set<string>();
  const missing: { flow_id: string; name: string }[] = [];
  const steps: PlannedStep[] = [];

  const load = async (id: string, root: boolean): Promise<Flow> => {
    const known = loaded.get(id);
    if (known) return known;
    const flow = await ctx.store.flows.get(id).catch((error: unknown) => {
      if (!root && error instanceof ApiError && error.code === 'resource.not_found')
        throw new ApiError('flows.unknown', { ids: [id] });
      throw error;
    });
    flow.steps.forEach((step, index) => {
      const parsed = FlowStep.safeParse(step);
      if (!parsed.success)
        throw new ApiError('flows.not_runnable', {
          flow_id: id,
          step: index,
          reason: parsed.error.issues.map((issue) => issue.message).join('; '),
        });
    });
    loaded.set(id, flow);
    return flow;
  };

  const expand = async (id: string, path: readonly string[]): Promise<void> => {
    if (path.includes(id))
      throw new ApiError('flows.dependency_cycle', { cycle: [...path.slice(path.indexOf(id)), id] });
    const flow = await load(id, path.length === 0);
    const inner = [...path, id];
    for (const dependency of flow.dependencies) {
      if (done.has(dependency)) continue;
      await expand(dependency, inner);
      done.add(dependency);
    }
    for (const step of flow.steps) {
      const unresolved = referencedNames(step).filter((name) => !values.has(flow, name));
      missing.push(...unresolved.map((name) => ({ flow_id: id, name })));
      if (step.type !== 'run_flow') {
        steps.push({ flow, step });
        if (steps.length > MAX_PLAN_STEPS)
          throw new ApiError('flows.not_runnable', {
            flow_id: id,
            step: flow.steps.indexOf(step),
            reason: `a run may be at most ${MAX_PLAN_STEPS} steps, dependencies and run_flow expanded`,
          });
      } else if (unresolved.length === 0) await expand((await values.resolve(flow, step)).step.flow_id, inner);
    }
  };

  await expand(flowId, []);
  if (missing.length > 0)
    throw new ApiError('flows.missing_values', {
      missing: [...new Map(missing.map((entry) => [`${entry.flow_id}\n${entry.name}`, entry])).values()],
    });
  return steps;
}
