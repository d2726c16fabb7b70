import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import type { AudiencePreview, AudienceRuleInput } from '@pathwell/contracts/outreach';
import { audienceRuleSchema } from '@pathwell/contracts/outreach';
import { PatientPhoneType } from '@pathwell/contracts/patients';
import { RoleCode } from '@pathwell/contracts/roles';
import {
  appointments,
  campaignRecipients,
  campaigns,
  codedVisitCodes,
  codedVisits,
  codeGroups,
  hotlistCalls,
  hotlistEntries,
  hotlists,
  instances,
  managedItems,
  patientPhoneNumbers,
  patients,
  patientStudyGroups,
  smsOptOuts,
  userInstances,
  users,
} from '../../db/schema';
import { createTestApp, nextIp, setInstanceSetting, signIn, type TestApp } from '../../../test/test-app';
import { countAudience, resolveAudience } from './audience.service';

/**
 * Audience rules on a hand-built clinic (issue #15 §5). Codes no demo patient has: A = Z99.81,
 * B = Z99.89, C = 0999T, D = Z99.11. Riverside's clock is America/Chicago; d(n) = n days before its
 * today. Every patient was born in 1970 (55+) unless said; every patient has an email unless said.
 *
 *   Alpha    A on d400, B on d30; mobile                      Bravo   A+C on d200; home phone; a no-show d10
 *   Charlie  D on d10 only (never matches A/B)                Delta   B on d700; completed appointment d20
 *   Echo     A on d300; an upcoming appointment in 10 days    Foxtrot B on d250, archived        → never
 *   Golf     A on d250, account closed → never                Hotel   A on d250, deleted         → never
 *   India    A on d100; mobile that texted STOP, emails off (opted out of both channels); a phone for calls
 *   Juliet   A on d100; no phone                              Kilo    A on d100; mobile; "do not call" on a hot list
 *   Lima     B on d100; a campaign text queued 5 days ago     Mike    B on d100; called from a hot list 10 days ago
 *   November A on d50, 30 years old today                     Oscar   A on d50 by the second doctor
 *   Papa     B on d50, payor status "Self pay"                Quebec  B on d50, in study group "Lumbar trial"
 *   Sierra   A on d400, D on d5 (its last visit is recent, through a code the rule does not name)
 *   Lakeside's Lakes: A+B on d30 (another clinic: never). Code group G1 = [A, C]; Lakeside's group LG = [D].
 */
const A = 'Z99.81';
const B = 'Z99.89';
const C = '0999T';
const D = 'Z99.11';
const ZONE = 'America/Chicago';

let t: TestApp;
let riverside: string;
let lakeside: string;
let doctorA: string;
let doctorB: string;
let groupG1: string;
let lakesideGroup: string;
let selfPay: string;
let lumbarTrial: string;
let adminId: string;
const ids: Record<string, string> = {};
let headers: Record<string, string>;

/** The clinic's today minus `days`, as YYYY-MM-DD. */
const d = (days: number) => {
  const today = new Date().toLocaleDateString('en-CA', { timeZone: ZONE });
  const date = new Date(`${today}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
};
const kindOf = (code: string) => (/^\d/.test(code) ? 'procedure' : 'diagnosis');

let visitNumber = 0;
async function codedVisit(patientId: string, day: string, codes: string[], providerId = doctorA, instanceId = riverside) {
  const [visit] = await t.db
    .insert(codedVisits)
    .values({
      instanceId,
      patientId,
      visitDate: day,
      providerId,
      source: 'import',
      dedupeKey: `audience-test:${++visitNumber}`,
      codes,
    })
    .returning({ id: codedVisits.id });
  await t.db.insert(codedVisitCodes).values(
    codes.map((code) => ({
      instanceId,
      codedVisitId: visit!.id,
      code,
      kind: kindOf(code) as 'diagnosis' | 'procedure',
      patientId,
      visitDate: day,
      providerId,
    })),
  );
}

async function patient(
  key: string,
  values: Partial<typeof patients.$inferInsert> = {},
  visits: [number, string[], string?][] = [],
): Promise<string> {
  const instanceId = values.instanceId ?? riverside;
  const [row] = await t.db
    .insert(patients)
    .values({
      instanceId,
      firstName: 'Pat',
      lastName: key,
      dateOfBirth: '1970-03-01',
      email: `${key.toLowerCase()}@audience.test`,
      ...values,
    })
    .returning({ id: patients.id });
  ids[key] = row!.id;
  for (const [days, codes, provider] of visits) await codedVisit(row!.id, d(days), codes, provider ?? doctorA, instanceId);
  return row!.id;
}

async function phone(patientId: string, digits: string, phoneType: number = PatientPhoneType.MOBILE) {
  await t.db
    .insert(patientPhoneNumbers)
    .values({ instanceId: riverside, patientId, phoneType, number: digits, digits, isPrimary: true });
}

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

const preview = async (rule: AudienceRuleInput, kind: 'campaign' | 'hotlist' = 'campaign') => {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/patients/patientscontrollistfortemplate',
    headers,
    payload: { kind, rule },
    remoteAddress: nextIp(),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AudiencePreview>();
};
/** The audience's last names (the sample is in name order; every audience here is under 25). */
const names = async (rule: AudienceRuleInput, kind: 'campaign' | 'hotlist' = 'campaign') => {
  const result = await preview(rule, kind);
  expect(result.count).toBe(result.sample.length);
  return result.sample.map((row) => row.lastName);
};

const anyAB: AudienceRuleInput = { codes: [A, B], matchMode: 2 };
/** Everyone Any(A, B) selects before other filters. */
const everyone = [
  'Alpha',
  'Bravo',
  'Delta',
  'Echo',
  'Juliet',
  'Kilo',
  'Lima',
  'Mike',
  'November',
  'Oscar',
  'Papa',
  'Quebec',
  'Sierra',
];
const without = (...left: string[]) => everyone.filter((name) => !left.includes(name));

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select().from(instances);
  riverside = rows.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  lakeside = rows.find((row) => row.name === 'Lakeside Pain Center')!.id;
  await setInstanceSetting(t.db, riverside, 'timeZoneId', ZONE);
  await setInstanceSetting(t.db, riverside, 'useCodePull', 'true');
  const admin = await signIn(t.app, 'admin@pathwell.demo');
  headers = admin.headers;
  adminId = admin.id;
  doctorA = (await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo')))[0]!.id;
  const [colleague] = await t.db
    .insert(users)
    .values({
      email: 'audience.colleague@pathwell.test',
      firstName: 'Luis',
      lastName: 'Peña',
      role: RoleCode.Doctor,
      instanceId: riverside,
    })
    .returning({ id: users.id });
  doctorB = colleague!.id;
  await t.db.insert(userInstances).values({ userId: doctorB, instanceId: riverside });
  const [payor] = await t.db
    .insert(managedItems)
    .values({ instanceId: riverside, listType: 'customfield:payorstatus', name: 'Audience self pay', attributes: {} })
    .returning({ id: managedItems.id });
  selfPay = payor!.id;
  const [trial] = await t.db
    .insert(managedItems)
    .values({ instanceId: riverside, listType: 'studygroups', name: 'Audience lumbar trial', attributes: {} })
    .returning({ id: managedItems.id });
  lumbarTrial = trial!.id;
  groupG1 = (
    await t.db
      .insert(codeGroups)
      .values({ instanceId: riverside, name: 'G1', codes: [A, C] })
      .returning()
  )[0]!.id;
  lakesideGroup = (
    await t.db
      .insert(codeGroups)
      .values({ instanceId: lakeside, name: 'LG', codes: [D] })
      .returning()
  )[0]!.id;

  const alpha = await patient('Alpha', {}, [
    [400, [A]],
    [30, [B]],
  ]);
  await phone(alpha, '5125550101');
  const bravo = await patient('Bravo', {}, [[200, [A, C]]]);
  await phone(bravo, '5125550102', PatientPhoneType.HOME);
  await t.db.insert(appointments).values({
    instanceId: riverside,
    patientId: bravo,
    startsAt: new Date(`${d(10)}T18:00:00Z`),
    status: AppointmentStatus.No_Show,
  });
  await patient('Charlie', {}, [[10, [D]]]);
  const delta = await patient('Delta', {}, [[700, [B]]]);
  await t.db.insert(appointments).values({
    instanceId: riverside,
    patientId: delta,
    startsAt: new Date(`${d(20)}T18:00:00Z`),
    status: AppointmentStatus.Completed,
  });
  const echo = await patient('Echo', {}, [[300, [A]]]);
  await t.db.insert(appointments).values({
    instanceId: riverside,
    patientId: echo,
    startsAt: daysAgo(-10),
    status: AppointmentStatus.Upcoming,
  });
  await patient('Foxtrot', { archivedAt: new Date() }, [[250, [B]]]);
  await patient('Golf', { accountClosedAt: new Date() }, [[250, [A]]]);
  await patient('Hotel', { deletedAt: new Date() }, [[250, [A]]]);
  const india = await patient('India', { enableEmail: false }, [[100, [A]]]);
  await phone(india, '5125550109');
  await t.db.insert(smsOptOuts).values({ instanceId: riverside, phone: '+15125550109', optedOut: true, keyword: 'STOP' });
  await patient('Juliet', {}, [[100, [A]]]);
  const kilo = await patient('Kilo', {}, [[100, [A]]]);
  await phone(kilo, '5125550111');
  const lima = await patient('Lima', {}, [[100, [B]]]);
  const mike = await patient('Mike', {}, [[100, [B]]]);
  const thirty = new Date(`${d(0)}T12:00:00Z`);
  thirty.setUTCFullYear(thirty.getUTCFullYear() - 30);
  await patient('November', { dateOfBirth: thirty.toISOString().slice(0, 10) }, [[50, [A]]]);
  await patient('Oscar', {}, [[50, [A], doctorB]]);
  await patient('Papa', { payorStatusId: selfPay }, [[50, [B]]]);
  const quebec = await patient('Quebec', {}, [[50, [B]]]);
  await t.db.insert(patientStudyGroups).values({ instanceId: riverside, patientId: quebec, studyGroupId: lumbarTrial });
  await patient('Sierra', {}, [
    [400, [A]],
    [5, [D]],
  ]);
  await patient('Lakes', { instanceId: lakeside }, [[30, [A, B]]]);

  // Contact history: Lima got a campaign text 5 days ago; Mike was called 10 days ago; Kilo said "do not call".
  const [campaign] = await t.db
    .insert(campaigns)
    .values({
      instanceId: riverside,
      name: 'Audience test campaign',
      channels: ['sms'],
      messageEn: 'Hi',
      messageEs: 'Hola',
      status: 'finished',
    })
    .returning({ id: campaigns.id });
  await t.db.insert(campaignRecipients).values({
    instanceId: riverside,
    campaignId: campaign!.id,
    patientId: lima,
    language: 'en',
    matchedCodes: [B],
    position: 1,
    smsStatus: 'queued',
    queuedAt: daysAgo(5),
  });
  const [list] = await t.db
    .insert(hotlists)
    .values({ instanceId: riverside, name: 'Audience test list', rule: audienceRuleSchema.parse(anyAB) })
    .returning({ id: hotlists.id });
  const entries = await t.db
    .insert(hotlistEntries)
    .values([
      { instanceId: riverside, hotlistId: list!.id, patientId: mike, position: 1, matchedCodes: [B], outcome: 'voicemail' },
      { instanceId: riverside, hotlistId: list!.id, patientId: kilo, position: 2, matchedCodes: [A], outcome: 'doNotCall' },
    ])
    .returning({ id: hotlistEntries.id, patientId: hotlistEntries.patientId });
  await t.db.insert(hotlistCalls).values({
    instanceId: riverside,
    hotlistId: list!.id,
    entryId: entries.find((entry) => entry.patientId === mike)!.id,
    patientId: mike,
    userId: adminId,
    outcome: 'voicemail',
    createdAt: daysAgo(10),
  });
});
afterAll(async () => {
  await t?.close();
});

describe('audience match modes', () => {
  it('Any of These Codes: a patient with at least one of the codes', async () => {
    // Foxtrot (archived), Golf (closed), Hotel (deleted), India (opted out of both channels), Charlie
    // (D only) and Lakeside's Lakes never.
    expect(await names(anyAB)).toEqual(everyone);
    expect(await names({ codes: [C], matchMode: 2 })).toEqual(['Bravo']);
  });

  it('All of These Codes: every code, on any of the patient’s visits', async () => {
    // Alpha has A (d400) and B (d30) on two visits; Lakeside's Lakes has both on one but is another clinic's.
    expect(await names({ codes: [A, B], matchMode: 1 })).toEqual(['Alpha']);
    expect(await names({ codes: [A, C], matchMode: 1 })).toEqual(['Bravo']);
    expect(await names({ codes: [A, B, C], matchMode: 1 })).toEqual([]);
  });

  it('Custom Timeframe: a code on a visit inside the window', async () => {
    // d60–today: Alpha's B (d30), November's and Oscar's A (d50), Papa's and Quebec's B (d50).
    expect(await names({ codes: [A, B], matchMode: 3, codedFrom: d(60), codedTo: d(0) })).toEqual([
      'Alpha',
      'November',
      'Oscar',
      'Papa',
      'Quebec',
    ]);
    // d500–d300 (inclusive): Alpha's and Sierra's A (d400), Echo's A (d300).
    expect(await names({ codes: [A, B], matchMode: 3, codedFrom: d(500), codedTo: d(300) })).toEqual(['Alpha', 'Echo', 'Sierra']);
  });

  it('shows the matched codes and the last visit of each sample patient', async () => {
    const result = await preview(anyAB);
    const row = (name: string) => result.sample.find((entry) => entry.lastName === name)!;
    expect(row('Alpha')).toMatchObject({ patientId: ids.Alpha, firstName: 'Pat', matchedCodes: [A, B], lastVisit: d(30) });
    expect(row('Alpha').dateOfBirth).toBe('1970-03-01');
    // Delta's last visit is the completed appointment (d20), after its coded visit (d700).
    expect(row('Delta')).toMatchObject({ matchedCodes: [B], lastVisit: d(20) });
    // Sierra's is the D visit (d5), though D is not the rule's.
    expect(row('Sierra')).toMatchObject({ matchedCodes: [A], lastVisit: d(5) });
    // A window names only the codes inside it.
    const window = await preview({ codes: [A, B], matchMode: 3, codedFrom: d(60), codedTo: d(0) });
    expect(window.sample.find((entry) => entry.lastName === 'Alpha')!.matchedCodes).toEqual([B]);
  });
});

describe('code groups', () => {
  it('adds a group’s codes (Any) and needs one of each group (All)', async () => {
    expect(await names({ codeGroupIds: [groupG1], matchMode: 2 })).toEqual(without('Delta', 'Lima', 'Mike', 'Papa', 'Quebec'));
    // All: B, and A or C from G1 → only Alpha (Bravo has A and C but no B).
    expect(await names({ codes: [B], codeGroupIds: [groupG1], matchMode: 1 })).toEqual(['Alpha']);
    expect(await names({ codeGroupIds: [groupG1], matchMode: 1 })).toEqual(await names({ codes: [A, C], matchMode: 2 }));
  });

  it('never reads another clinic’s group', async () => {
    // Lakeside's LG would bring in D (Charlie, Sierra): it is ignored.
    expect(await names({ codes: [A], codeGroupIds: [lakesideGroup], matchMode: 2 })).toEqual(
      await names({ codes: [A], matchMode: 2 }),
    );
    expect(await preview({ codeGroupIds: [lakesideGroup], matchMode: 2 })).toEqual({ count: 0, sample: [] });
  });
});

describe('audience filters', () => {
  it('last visit before / after: the later of the last coded visit and the last completed appointment', async () => {
    // Before d180: Bravo (d200; the no-show d10 is no visit), Echo (d300; the upcoming one is not
    // either). Delta's coded visit is d700 but its completed appointment d20; Sierra has D on d5.
    expect(await names({ ...anyAB, lastVisitBefore: d(180) })).toEqual(['Bravo', 'Echo']);
    // On or after d60: Alpha (d30), Delta (appointment d20), d50 ones, Sierra (d5).
    expect(await names({ ...anyAB, lastVisitAfter: d(60) })).toEqual([
      'Alpha',
      'Delta',
      'November',
      'Oscar',
      'Papa',
      'Quebec',
      'Sierra',
    ]);
    // The day itself counts as after: Alpha's last visit is d30.
    expect(await names({ codes: [A, B], matchMode: 1, lastVisitAfter: d(30) })).toEqual(['Alpha']);
    expect(await names({ codes: [A, B], matchMode: 1, lastVisitBefore: d(30) })).toEqual([]);
  });

  it('no upcoming appointment', async () => {
    expect(await names({ ...anyAB, noUpcomingAppointment: true })).toEqual(without('Echo'));
  });

  it('age range on the clinic’s today', async () => {
    // November turns 30 today; everyone else was born in 1970.
    expect(await names({ ...anyAB, ageMin: 30, ageMax: 30 })).toEqual(['November']);
    expect(await names({ ...anyAB, ageMax: 29 })).toEqual([]);
    expect(await names({ ...anyAB, ageMin: 31 })).toEqual(without('November'));
  });

  it('provider of a matching visit, payor status, cohort', async () => {
    expect(await names({ ...anyAB, providerIds: [doctorB] })).toEqual(['Oscar']);
    expect(await names({ ...anyAB, providerIds: [doctorA] })).toEqual(without('Oscar'));
    expect(await names({ ...anyAB, payorStatusIds: [selfPay] })).toEqual(['Papa']);
    expect(await names({ ...anyAB, studyGroupIds: [lumbarTrial] })).toEqual(['Quebec']);
  });

  it('leaves out patients contacted in the last N days (campaign texts queued, hot-list calls)', async () => {
    // Lima's text was queued 5 days ago, Mike was called 10 days ago.
    expect(await names({ ...anyAB, excludeContactedWithinDays: 30 })).toEqual(without('Lima', 'Mike'));
    expect(await names({ ...anyAB, excludeContactedWithinDays: 7 })).toEqual(without('Lima'));
    expect(await names({ ...anyAB, excludeContactedWithinDays: 3 })).toEqual(everyone);
  });
});

describe('audience purposes', () => {
  it('a hot list needs a phone number and leaves out "do not call"', async () => {
    // Phones: Alpha (mobile), Bravo (home), India (mobile; texts stopped, but calls are fine), Kilo (mobile,
    // but "do not call").
    expect(await names(anyAB, 'hotlist')).toEqual(['Alpha', 'Bravo', 'India']);
  });

  it('a campaign reaches patients on its channels; opted-out patients are left out', async () => {
    const rule = audienceRuleSchema.parse(anyAB);
    const members = async (channels: ('sms' | 'email')[]) => {
      const list = await resolveAudience(t.db, riverside, rule, { kind: 'campaign', channels });
      const byId = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
      return list.map((member) => byId[member.patientId]);
    };
    // Texts: a mobile, texts on, not stopped → Alpha and Kilo (Bravo's is a home phone, India said STOP).
    expect(await members(['sms'])).toEqual(['Alpha', 'Kilo']);
    expect(await countAudience(t.db, riverside, rule, { kind: 'campaign', channels: ['sms'] })).toBe(2);
    // Emails: everyone but India (emails off).
    expect(await members(['email'])).toEqual(everyone);
    expect(await countAudience(t.db, riverside, rule, { kind: 'campaign', channels: ['sms', 'email'] })).toBe(everyone.length);
    const alpha = (await resolveAudience(t.db, riverside, rule, { kind: 'campaign', channels: ['sms'] }))[0]!;
    expect(alpha).toEqual({ patientId: ids.Alpha, matchedCodes: [A, B], lastVisit: d(30) });
  });

  it('opting back in (START) brings a patient back', async () => {
    await t.db
      .update(smsOptOuts)
      .set({ optedOut: false })
      .where(and(eq(smsOptOuts.instanceId, riverside), eq(smsOptOuts.phone, '+15125550109')));
    try {
      expect(await names(anyAB)).toEqual([...everyone, 'India'].sort());
    } finally {
      await t.db
        .update(smsOptOuts)
        .set({ optedOut: true })
        .where(and(eq(smsOptOuts.instanceId, riverside), eq(smsOptOuts.phone, '+15125550109')));
    }
  });

  it('never counts another clinic’s coded visits', async () => {
    await setInstanceSetting(t.db, lakeside, 'useCodePull', 'true');
    const lakesideAdmin = await signIn(t.app, 'admin2@pathwell.demo');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/patients/patientscontrollistfortemplate',
      headers: lakesideAdmin.headers,
      payload: { kind: 'campaign', rule: anyAB },
      remoteAddress: nextIp(),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<AudiencePreview>().sample.map((row) => row.lastName)).toEqual(['Lakes']);
    expect(await countAudience(t.db, lakeside, audienceRuleSchema.parse(anyAB), { kind: 'hotlist' })).toBe(0);
  });
});
