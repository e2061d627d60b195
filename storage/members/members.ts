import { ApiError } from '../../src/shared/errors/api-error';
import type { AuditContext } from '../audit/entry';
import type { StoreContext } from '../context';
import { first } from '../sql/sql';
import type { Member, MemberRole } from './schema';

/**
 * The people (and Access service tokens) of a team and their roles, by email. A team always keeps
 * an owner: its last owner can be neither removed nor demoted, so that someone can always manage it.
 */
export class Members {
  constructor(private readonly ctx: StoreContext) {}

  list(): Member[] {
    return this.ctx.db.all<Member>('SELECT email, role, created_at, updated_at FROM members ORDER BY email');
  }

  /** Adds the member with `role`, or gives an existing member that role. */
  set(audit: AuditContext, email: string, role: MemberRole): Member {
    return this.ctx.change(
      audit,
      () => {
        const current = this.get(email);
        if (current?.role === 'owner' && role !== 'owner') this.keepAnOwner(email);
        const now = this.ctx.now();
        const member: Member = { email, role, created_at: current?.created_at ?? now, updated_at: now };
        this.ctx.db.run(
          `INSERT INTO members (email, role, created_at, updated_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (email) DO UPDATE SET role = excluded.role, updated_at = excluded.updated_at`,
          member.email,
          member.role,
          member.created_at,
          member.updated_at,
        );
        return member;
      },
      (member) => subject(member),
    );
  }

  remove(audit: AuditContext, email: string): void {
    this.ctx.change(
      audit,
      () => {
        const current = this.get(email);
        if (!current) throw new ApiError('resource.not_found', { resource: 'member', id: email });
        if (current.role === 'owner') this.keepAnOwner(email);
        this.ctx.db.run('DELETE FROM members WHERE email = ?', email);
        return current;
      },
      (removed) => subject(removed),
    );
  }

  /** The role of a member, for authentication; null for someone who is not one. */
  role(email: string): MemberRole | null {
    return this.get(email)?.role ?? null;
  }

  private get(email: string): Member | undefined {
    return first<Member>(this.ctx.db, 'SELECT email, role, created_at, updated_at FROM members WHERE email = ?', email);
  }

  /** Throws when `email` is the only owner, before a change that would leave the team without one. */
  private keepAnOwner(email: string): void {
    const others = first<{ n: number }>(
      this.ctx.db,
      `SELECT count(*) AS n FROM members WHERE role = 'owner' AND email <> ?`,
      email,
    )!;
    if (others.n === 0) throw new ApiError('members.last_owner', { email });
  }
}

const subject = (member: Member) => ({
  entity_type: 'member',
  entity_id: member.email,
  details: { role: member.role },
});
