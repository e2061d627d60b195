import { beforeAll, describe, expect, it } from 'vitest';
import { fromBase64 } from '../../src/shared/base64';
import { DAY_MS } from '../../src/shared/time';
import { teamPrefix } from '../../src/teams/team-id';
import { anchorSigned } from '../../storage/audit/anchors';
import { dayIndex, dayName } from '../../storage/audit/days';
import type { AuditList, AuditPublicKey, AuditRecord, AuditVerification } from '../../storage/audit/schema';
import { publicKeyFromPem, signatureValid } from '../../storage/audit/signing';
import { verifyJsonlExport } from '../../storage/audit/verify-export';
import { SEALS_FILE } from '../../src/host/seal-record';
import { createTeam, inTeamObject, teamCall, teamEnv, teamPath, teamToken } from './support';

interface ChainTeam {
  id: string;
  token: string;
}

const [A, B] = ['chain-a', 'chain-b'];
const teams: Record<string, ChainTeam> = {};

async function get<T>(team: string, path: string): Promise<T> {
  const res = await teamCall(teamPath(team, path), { token: teams[team]!.token });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
  return res.json as T;
}

const publicKey = (team: string) => get<AuditPublicKey>(team, '/audit/public-key');
const exportText = async (team: string) =>
  new TextDecoder().decode(
    fromBase64((await get<{ content_base64: string }>(team, '/audit/export?format=jsonl')).content_base64),
  );
const exportLines = async (team: string) =>
  (await exportText(team))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
/** The team's seal record in the bucket, its lines; null when there is none. */
async function sealRecord(team: string): Promise<Record<string, unknown>[] | null> {
  const object = await teamEnv.TEAM_FILES.get(`${teamPrefix(team)}${SEALS_FILE}`);
  return object
    ? (await object.text())
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
    : null;
}
const runDaily = (team: string, now: number) => inTeamObject(team, (instance) => instance.runDaily(now));

/** The newest entry of team A's chain when its day was sealed, and the moment after that day's end that the daily run ran at. */
let head: { seq: number; ts: number };
let nextDay: number;

beforeAll(async () => {
  for (const id of [A, B]) {
    const { owner } = await createTeam(id);
    teams[id] = { id, token: (await teamToken(id, owner, [], true)).token };
    for (let i = 0; i < 3; i++)
      expect(
        (
          await teamCall(teamPath(id, '/profiles'), {
            method: 'POST',
            token: teams[id]!.token,
            body: { name: `p${i}` },
          })
        ).status,
      ).toBe(201);
  }
  const newest = (await get<AuditList>(A, '/audit?limit=1')).items[0]!;
  head = { seq: newest.seq, ts: newest.ts };
  // Five seconds into the next day (UTC): the day of the newest entry has ended, and is the one to seal.
  nextDay = (dayIndex(newest.ts) + 1) * DAY_MS + 5_000;
  await runDaily(A, nextDay);
});

describe("a team's chain across the day", () => {
  it("is sealed by the daily run: the anchor signed with the team's key, one line in the seal record under the team's prefix", async () => {
    const day = dayName(dayIndex(head.ts));
    const lines = await exportLines(A);
    const sealed = lines.find((line) => line.anchor !== undefined) as AuditRecord | undefined;
    expect(sealed).toMatchObject({ seq: head.seq, anchor: { day, signature: expect.any(String) } });
    const key = await publicKey(A);
    const signed = anchorSigned({ day, seq: sealed!.seq, hash: sealed!.hash }, sealed!.anchor!.store_id);
    expect(signatureValid(publicKeyFromPem(key.public_key_pem), signed, sealed!.anchor!.signature)).toBe(true);
    expect(
      signatureValid(publicKeyFromPem((await publicKey(B)).public_key_pem), signed, sealed!.anchor!.signature),
    ).toBe(false);
    expect(await sealRecord(A)).toEqual([
      { key_id: key.key_id, store_id: sealed!.anchor!.store_id, day, seq: head.seq, hash: sealed!.hash },
    ]);
    // Team B's daily run has not run: nothing of it is sealed, and nothing of A is under B's prefix.
    expect(await sealRecord(B)).toBeNull();
    expect((await teamEnv.TEAM_FILES.list()).objects.map((o) => o.key)).toEqual([`${teamPrefix(A)}${SEALS_FILE}`]);
    expect(await get<AuditVerification>(A, '/audit/verify')).toEqual({
      ok: true,
      checked: head.seq,
      anchors: 1,
      first_bad_seq: null,
      missing_anchor: null,
      sealed_twice: null,
    });
  });

  it('is not sealed again by a second run, that day or the next', async () => {
    await runDaily(A, nextDay + 60_000);
    await runDaily(A, nextDay + DAY_MS);
    expect(await sealRecord(A)).toHaveLength(1);
    expect(await get<AuditVerification>(A, '/audit/verify')).toMatchObject({
      ok: true,
      anchors: 1,
      sealed_twice: null,
    });
  });

  it("exports a file that the offline verifier (`lpa audit verify-file`) accepts with the team's public key, and refuses with another team's", async () => {
    const text = await exportText(A);
    expect(verifyJsonlExport(text, { publicKeyPem: (await publicKey(A)).public_key_pem })).toEqual({
      ok: true,
      checked: head.seq,
      first_bad_seq: null,
      first_bad_line: null,
      reason: null,
      first_seq: 1,
      last_seq: head.seq,
      gaps: 0,
      anchors: 1,
      missing_anchor: null,
      checkpoint_seq: null,
      signed_head: true,
    });
    const foreign = verifyJsonlExport(text, { publicKeyPem: (await publicKey(B)).public_key_pem });
    expect(foreign).toMatchObject({ ok: false, anchors: 0, signed_head: false });
  });
});
