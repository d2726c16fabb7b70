import type { CampaignDetail, CampaignFunnel, CampaignSummary } from '@pathwell/contracts/campaigns';
import { ids } from '../../../test/fake-api';

/** Fake API answers shared by the campaign page tests. */
export const campaignId = '99999999-9999-4999-8999-999999999991';
export const templateId = '99999999-9999-4999-8999-999999999992';
export const patientId = '99999999-9999-4999-8999-999999999993';

export const funnelOf = (values: Partial<CampaignFunnel> = {}): CampaignFunnel => ({
  recipients: 0,
  sent: 0,
  delivered: 0,
  failed: 0,
  skipped: 0,
  pending: 0,
  clicked: 0,
  replied: 0,
  optedOut: 0,
  booked: 0,
  ...values,
});

export const summary = (values: Partial<CampaignSummary> = {}): CampaignSummary => ({
  id: campaignId,
  name: 'Lumbar radiculopathy recall',
  status: 'draft',
  channels: ['sms'],
  templateName: 'Lumbar radiculopathy, not seen in 6 months',
  scheduledAt: null,
  textSending: true,
  createdAt: '2026-03-02T15:00:00.000Z',
  createdByName: 'Alex Carter',
  approvedAt: null,
  approvedByName: null,
  finishedAt: null,
  funnel: funnelOf(),
  waiting: null,
  ...values,
});

export const detail = (values: Partial<CampaignDetail> = {}): CampaignDetail => ({
  ...summary(),
  templateId,
  messageEn: 'Hi {firstName}, {clinic} has new openings. {instruction}',
  messageEs: 'Hola {firstName}, {clinic} tiene citas nuevas. {instruction}',
  subjectEn: null,
  subjectEs: null,
  instructionEn: 'Reply YES to book.',
  instructionEs: 'Responda SÍ para pedir cita.',
  linkUrl: null,
  throttlePerMinute: 60,
  attributionDays: 30,
  createdBy: ids.admin,
  can: { edit: true, approve: false, toggleText: false, finish: false, delete: true, archive: false },
  approveBlockedReason: 'author',
  channelsOff: [],
  contentHash: 'a'.repeat(64),
  preview: {
    en: 'Hi Rosa, Riverside Spine & Pain has new openings. Reply YES to book.',
    es: 'Hola Rosa, Riverside Spine & Pain tiene citas nuevas. Responda SÍ para pedir cita.',
  },
  ...values,
});
