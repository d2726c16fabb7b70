import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicClock, instantOfClinicTime } from '@pathwell/contracts/clinic-time';
import type { PerioperativeTemplate } from '@pathwell/contracts/managed-lists';
import type { PatientMessage, PerioperativeScheduleResult } from '@pathwell/contracts/messaging';
import { PatientPhoneType } from '@pathwell/contracts/patients';
import { activityLogs, instances, instanceSettings, outboxMessages, patientPhoneNumbers, patients, users } from '../../db/schema';
import { openBody } from '../outbox/outbox.service';
import { createTestApp, nextIp, signIn, TEST_SECRET_CONFIG, type TestApp } from '../../../test/test-app';

let t: TestApp;
const who = ['admin', 'doctor', 'staff', 'admin2'] as const;
type Who = (typeof who)[number];
const tokens = {} as Record<Who, Record<string, string>>;
let riverside = '';
let patientOfDoctor = '';
let patientOfNobody = '';
let template: PerioperativeTemplate;
const CHICAGO = 'America/Chicago';

const call = (method: 'GET' | 'POST' | 'PUT', url: string, as: Who, payload?: unknown) =>
  t.app.inject({ method, url, headers: tokens[as], payload: payload as object | undefined, remoteAddress: nextIp() });

/** MM/DD/YYYY of the day `days` from today (UTC is close enough: offsets are whole days from it). */
function mdyIn(days: number) {
  const date = new Date(Date.now() + days * 86_400_000);
  return `${String(date.getUTCMonth() + 1).padStart(2, '0')}/${String(date.getUTCDate()).padStart(2, '0')}/${date.getUTCFullYear()}`;
}

beforeAll(async () => {
  t = await createTestApp();
  for (const user of who) tokens[user] = (await signIn(t.app, `${user}@pathwell.demo`)).headers;
  const clinics = await t.db.select().from(instances);
  riverside = clinics.find((row) => row.name === 'Riverside Spine & Pain')!.id;
  await t.db
    .insert(instanceSettings)
    .values({ instanceId: riverside, configurationId: 'timeZoneId', configurationValue: CHICAGO })
    .onConflictDoUpdate({
      target: [instanceSettings.instanceId, instanceSettings.configurationId],
      set: { configurationValue: CHICAGO },
    });
  const [doctor] = await t.db.select().from(users).where(eq(users.email, 'doctor@pathwell.demo'));
  const [own] = await t.db
    .insert(patients)
    .values({
      instanceId: riverside,
      firstName: 'Marta',
      lastName: 'Quintana',
      dateOfBirth: '1966-02-11',
      email: 'marta.q@example.test',
      preferredLanguage: 'es',
      doctorId: doctor!.id,
    })
    .returning({ id: patients.id });
  patientOfDoctor = own!.id;
  await t.db.insert(patientPhoneNumbers).values({
    instanceId: riverside,
    patientId: patientOfDoctor,
    phoneType: PatientPhoneType.MOBILE,
    number: '(512) 555-0177',
    digits: '5125550177',
  });
  const [nobody] = await t.db
    .insert(patients)
    .values({
      instanceId: riverside,
      firstName: 'Tom',
      lastName: 'Reyes',
      dateOfBirth: '1970-01-01',
      email: 'tom.r@example.test',
    })
    .returning({ id: patients.id });
  patientOfNobody = nobody!.id;
  const created = await call('POST', '/api/perioperativemessagetemplates', 'admin', {
    name: 'Lumbar epidural',
    codes: ['62323'],
  });
  expect(created.statusCode).toBe(201);
  template = created.json<PerioperativeTemplate>();
  for (const detail of [
    { dayOffset: -30, channel: 'email', subject: 'Long ago', messageEn: 'Too early.' },
    { dayOffset: -1, channel: 'sms', messageEn: 'Your procedure is tomorrow.', messageEs: 'Su procedimiento es mañana.' },
    {
      dayOffset: 2,
      channel: 'email',
      subject: 'How are you?',
      messageEn: 'Tell us how you feel.',
      messageEs: '¿Cómo se siente?',
    },
  ]) {
    const response = await call('POST', `/api/perioperativemessagetemplates/${template.id}/details`, 'admin', detail);
    expect(response.statusCode, response.body).toBe(201);
  }
  template = (await call('GET', `/api/perioperativemessagetemplates/${template.id}`, 'admin')).json<PerioperativeTemplate>();
});
afterAll(async () => {
  await t?.close();
});

describe('perioperative messages for a patient', () => {
  it('schedules each message on procedure day + offset at 9:00 clinic time, skipping a day already past', async () => {
    const procedureDate = mdyIn(10);
    const response = await call('POST', '/api/perioperativemessages/schedule', 'staff', {
      patientId: patientOfDoctor,
      templateId: template.id,
      procedureDate,
    });
    expect(response.statusCode, response.body).toBe(201);
    const result = response.json<PerioperativeScheduleResult>();
    const early = template.details.find((detail) => detail.dayOffset === -30)!;
    expect(result.skipped).toEqual([{ detailId: early.id, reason: 'past' }]);
    expect(result.messages).toHaveLength(2);
    const [month, day, year] = procedureDate.split('/').map(Number) as [number, number, number];
    for (const message of result.messages) {
      const clock = clinicClock(new Date(message.sendAfter!), CHICAGO);
      expect(clock.hour).toBe(9);
      expect(clock.minute).toBe(0);
    }
    const dayBefore = result.messages.find((message) => message.channel === 'sms')!;
    expect(dayBefore.sendAfter).toBe(instantOfClinicTime(year, month, day - 1, CHICAGO, 9).toISOString());
    expect(dayBefore.recipient).toBe('•••0177');
    const rows = await t.db.select().from(outboxMessages).where(eq(outboxMessages.patientId, patientOfDoctor));
    expect(rows.every((row) => row.template === 'perioperative' && row.perioperativeTemplateId === template.id)).toBe(true);
    // The clinic has texts off (the default): the text is kept with the reason, never silently dropped.
    const text = rows.find((row) => row.channel === 'sms')!;
    expect(text).toMatchObject({ status: 'suppressed', error: 'clinicSmsOff' });
    // In the patient's language (Spanish), sealed at rest.
    expect(openBody(TEST_SECRET_CONFIG, text)).toBe('Su procedimiento es mañana.');
    expect(text.body).not.toContain('mañana');
    // No SMTP in tests: emails stay stored.
    expect(rows.filter((row) => row.channel === 'email').map((row) => row.status)).toEqual(['stored']);
    const [log] = await t.db
      .select()
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.area, 'Patient Dashboard'),
          eq(activityLogs.targetId, patientOfDoctor),
          eq(activityLogs.action, 'Created'),
        ),
      );
    expect(log!.description).toContain('Lumbar epidural');
  });

  it('skips a message whose day has already passed and says so', async () => {
    const response = await call('POST', '/api/perioperativemessages/schedule', 'staff', {
      patientId: patientOfNobody,
      templateId: template.id,
      procedureDate: mdyIn(5),
    });
    expect(response.statusCode, response.body).toBe(201);
    const result = response.json<PerioperativeScheduleResult>();
    const early = template.details.find((detail) => detail.dayOffset === -30)!;
    const text = template.details.find((detail) => detail.channel === 'sms')!;
    expect(result.skipped).toEqual(
      expect.arrayContaining([
        { detailId: early.id, reason: 'past' },
        { detailId: text.id, reason: 'noContact' },
      ]),
    );
    expect(result.messages).toHaveLength(1);
  });

  it('sends one message now and lists the patient messages newest first', async () => {
    const detail = template.details.find((item) => item.dayOffset === 2)!;
    const sent = await call('POST', '/api/perioperativemessages/send', 'doctor', {
      patientId: patientOfDoctor,
      templateId: template.id,
      detailId: detail.id,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json<PatientMessage>()).toMatchObject({ channel: 'email', recipient: 'm•••@example.test', sendAfter: null });
    const list = await call('GET', `/api/patients/${patientOfDoctor}/messages`, 'doctor');
    expect(list.statusCode).toBe(200);
    const messages = list.json<PatientMessage[]>();
    expect(messages[0]!.id).toBe(sent.json<PatientMessage>().id);
    expect(messages).toHaveLength(3);
  });

  it('refuses bad input with field errors', async () => {
    const response = await call('POST', '/api/perioperativemessages/schedule', 'staff', {
      patientId: 'nope',
      templateId: template.id,
      procedureDate: '13/45/2026',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ fields: Record<string, string> }>().fields).toMatchObject({
      patientId: 'idInvalid',
      procedureDate: 'dateInvalid',
    });
  });

  it("answers 404 for another doctor's or nobody's patient (a Doctor), and for another clinic", async () => {
    const nobody = await call('POST', '/api/perioperativemessages/schedule', 'doctor', {
      patientId: patientOfNobody,
      templateId: template.id,
      procedureDate: mdyIn(10),
    });
    expect(nobody.statusCode).toBe(404);
    expect((await call('GET', `/api/patients/${patientOfNobody}/messages`, 'doctor')).statusCode).toBe(404);
    const otherClinic = await call('POST', '/api/perioperativemessages/send', 'admin2', {
      patientId: patientOfDoctor,
      templateId: template.id,
      detailId: template.details[0]!.id,
    });
    expect(otherClinic.statusCode).toBe(404);
    expect((await call('GET', `/api/patients/${patientOfDoctor}/messages`, 'admin2')).statusCode).toBe(404);
  });

  it('refuses a template that is switched off (409), and uses it again once it is on', async () => {
    const off = await call('PUT', `/api/perioperativemessagetemplates/${template.id}`, 'admin', {
      name: template.name,
      codes: template.codes,
      isActive: false,
    });
    expect(off.statusCode, off.body).toBe(200);
    const body = { patientId: patientOfNobody, templateId: template.id, procedureDate: mdyIn(10) };
    const refused = await call('POST', '/api/perioperativemessages/schedule', 'staff', body);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ messageKey: 'templateInactive' });
    await call('PUT', `/api/perioperativemessagetemplates/${template.id}`, 'admin', {
      name: template.name,
      codes: template.codes,
      isActive: true,
    });
    expect((await call('POST', '/api/perioperativemessages/schedule', 'staff', body)).statusCode).toBe(201);
  });

  it('duplicates a template with its messages (admins only)', async () => {
    const copy = await call('POST', `/api/perioperativemessagetemplates/${template.id}/duplicate`, 'admin');
    expect(copy.statusCode, copy.body).toBe(201);
    expect(copy.json<PerioperativeTemplate>()).toMatchObject({
      name: 'Lumbar epidural (copy)',
      detailCount: 3,
      codes: ['62323'],
    });
    const again = await call('POST', `/api/perioperativemessagetemplates/${template.id}/duplicate`, 'admin');
    expect(again.json<PerioperativeTemplate>().name).toBe('Lumbar epidural (copy 2)');
    expect((await call('POST', `/api/perioperativemessagetemplates/${template.id}/duplicate`, 'staff')).statusCode).toBe(403);
    expect((await call('POST', `/api/perioperativemessagetemplates/${template.id}/duplicate`, 'admin2')).statusCode).toBe(404);
  });
});
