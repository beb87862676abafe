import type { z } from 'zod';
import { normalizeEmail, normalizePhone } from '../rules/phone.js';
import { declaredPrefix } from './code-prefix.js';
import type { MerchantSeed } from './merchant-seed.js';

type Seed = { codePrefix?: string | undefined; merchants: MerchantSeed[] };
type Issue = (path: PropertyKey[], message: string) => void;

/** Report every value seen before at `path` of `items` (ids, codes, member keys). */
function checkUnique<T>(
  items: readonly T[],
  key: (item: T) => string | null | undefined,
  path: (i: number) => PropertyKey[],
  what: string,
  issue: Issue,
): void {
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    const value = key(item);
    if (value === null || value === undefined) return;
    const first = seen.get(value);
    if (first === undefined) seen.set(value, i);
    else issue(path(i), `duplicate ${what} (already at index ${first})`);
  });
}

function checkMembers(merchant: MerchantSeed, at: PropertyKey[], issue: Issue): void {
  const members = merchant.members;
  const p = (field: string) => (i: number) => [...at, 'members', i, field];
  checkUnique(members, (m) => m.membershipId, p('membershipId'), 'membershipId', issue);
  checkUnique(members, (m) => m.externalId, p('externalId'), 'externalId', issue);
  checkUnique(members, (m) => (m.email ? normalizeEmail(m.email) : null), p('email'), 'email', issue);
  members.forEach((m, i) => {
    if (m.phone !== undefined && normalizePhone(m.phone, merchant.defaultCountryCode) === null) {
      issue(p('phone')(i), 'must be a phone number in E.164 (+ and 8–15 digits) or a local number');
    }
  });
  checkUnique(members, (m) => (m.phone ? normalizePhone(m.phone, merchant.defaultCountryCode) : null), p('phone'), 'phone', issue);
}

function checkCodes(merchant: MerchantSeed, at: PropertyKey[], prefix: string | undefined, issue: Issue): void {
  const rewards = new Map(merchant.rewards.map((r) => [r.id, r]));
  const members = new Set(merchant.members.map((m) => m.membershipId));
  const codes = merchant.issuedCodes;
  checkUnique(
    codes,
    (c) => c.code.toUpperCase(),
    (i) => [...at, 'issuedCodes', i, 'code'],
    'code',
    issue,
  );
  codes.forEach((c, i) => {
    const path = [...at, 'issuedCodes', i];
    // Earn matches only `<prefix>-` codes: one without it could never be used.
    if (prefix !== undefined && !c.code.toUpperCase().startsWith(`${prefix.toUpperCase()}-`))
      issue([...path, 'code'], `must start with "${prefix}-"`);
    const reward = rewards.get(c.rewardId);
    if (!reward) issue([...path, 'rewardId'], `no reward ${c.rewardId} in merchant ${merchant.id}`);
    else if (reward.type === 'POINTS' || reward.type === 'TIER')
      issue([...path, 'rewardId'], `a ${reward.type} reward cannot be issued as a code`);
    if (!members.has(c.membershipId)) issue([...path, 'membershipId'], `no member ${c.membershipId} in merchant ${merchant.id}`);
  });
}

/** zod superRefine: duplicates, cross-references and the code prefix inside one seed. */
export function checkSeedReferences(seed: Seed, ctx: z.RefinementCtx): void {
  const issue: Issue = (path, message) => ctx.addIssue({ code: 'custom', path, message });
  checkUnique(
    seed.merchants,
    (m) => m.id,
    (i) => ['merchants', i, 'id'],
    'merchant id',
    issue,
  );
  const rewardIds = seed.merchants.flatMap((m, i) => m.rewards.map((r, j) => ({ id: r.id, path: ['merchants', i, 'rewards', j, 'id'] })));
  checkUnique(
    rewardIds,
    (r) => r.id,
    (k) => rewardIds[k]!.path,
    'reward id',
    issue,
  );
  seed.merchants.forEach((merchant, i) => {
    const at = ['merchants', i];
    checkUnique(
      merchant.outlets,
      (o) => o.id,
      (j) => [...at, 'outlets', j, 'id'],
      'outlet id',
      issue,
    );
    checkMembers(merchant, at, issue);
    checkCodes(merchant, at, declaredPrefix(seed), issue);
  });
}
