import { ApiError } from '../../src/shared/errors/api-error';
import type { AuditContext } from '../audit/entry';
import type { StoreContext } from '../context';
import {
  assertFlowsExist,
  dependencyCycle,
  dependentsOf,
  flowRows,
  insertFlow,
  protectedValue,
  readFlow,
  removeFlow,
  updateFlow,
} from './flow-records';
import type { Flow, FlowPatch, FlowSummary, NewFlow } from './schema';

/** Automation flows. A flow's dependencies always name existing flows: one cannot be deleted while another needs it. */
export class Flows {
  constructor(private readonly ctx: StoreContext) {}

  create(audit: AuditContext, input: NewFlow): Flow {
    const created = this.ctx.change(
      audit,
      () => {
        assertFlowsExist(this.ctx, input.dependencies ?? []);
        return insertFlow(this.ctx, input);
      },
      (flow) => ({
        entity_type: 'flow',
        entity_id: flow.id,
        details: { name: flow.name, steps: flow.step_count, values: flow.value_count },
      }),
    );
    return readFlow(this.ctx, created);
  }

  list(): FlowSummary[] {
    return flowRows(this.ctx);
  }

  get(id: string): Flow {
    return readFlow(this.ctx, this.summary(id));
  }

  /** A protected value in plaintext, for the step of a flow run that uses it (handlers/flow-job.ts); null when none is set. */
  protectedValue(id: string, name: string): string | null {
    return protectedValue(this.ctx, this.summary(id).id, name);
  }

  /**
   * Changes the given fields; new dependencies must name existing flows and close no cycle (a new
   * flow cannot close one: nothing depends on it yet). Nothing is written when a check fails.
   */
  update(audit: AuditContext, id: string, patch: FlowPatch): Flow {
    const updated = this.ctx.change(
      audit,
      () => {
        const current = this.summary(id);
        if (patch.dependencies) {
          assertFlowsExist(this.ctx, patch.dependencies);
          const cycle = dependencyCycle(this.ctx, id, patch.dependencies);
          if (cycle) throw new ApiError('flows.dependency_cycle', { cycle });
        }
        return updateFlow(this.ctx, current, patch);
      },
      (flow) => ({
        entity_type: 'flow',
        entity_id: flow.id,
        details: { name: flow.name, fields: Object.keys(patch).sort() },
      }),
    );
    return readFlow(this.ctx, updated);
  }

  delete(audit: AuditContext, id: string): void {
    this.ctx.change(
      audit,
      () => {
        this.summary(id);
        const dependents = dependentsOf(this.ctx, id);
        if (dependents.length > 0) throw new ApiError('flows.has_dependents', { dependents });
        removeFlow(this.ctx, id);
      },
      () => ({ entity_type: 'flow', entity_id: id }),
    );
  }

  private summary(id: string): FlowSummary {
    const row = flowRows(this.ctx, [id])[0];
    if (!row) throw new ApiError('resource.not_found', { resource: 'flow', id });
    return row;
  }
}
