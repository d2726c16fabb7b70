import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  AGREEMENT_MAX_BYTES,
  applicableFormsSchema,
  autoLogoutTimeSchema,
  configurationValuesSchema,
  configurationValuesViewSchema,
  dailyCapSchema,
  extendedPatientQuestionsSchema,
  fileKeyParamsSchema,
  fileKindOf,
  fileRules,
  instanceFileSchema,
  instanceSettingsUpdateSchema,
  instanceSettingsViewSchema,
  isFileKey,
  primaryLogoUrlSchema,
  settingFlagParamsSchema,
  settingFlagSchema,
  timeZoneOffsetSchema,
} from '@pathwell/contracts/instance-settings';
import { idSchema } from '@pathwell/contracts/validation';
import { contentDisposition } from '../../lib/content-disposition';
import { enterClinicOf, requireSignedIn } from '../../context';
import { AppError } from '../../lib/app-error';
import * as files from './instance-files.service';
import * as settings from './instance-settings.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  415: errorBodySchema,
};
const tags = ['Instance settings'];
/** The settings page is System Manager only; the route follows the menu's access list for it. */
const manage = { menuPath: '/admin/instancesettings' } as const;
/** Shell reads: every signed-in role, also in a parent user's all-clinics view (home clinic). */
const shellRead = { anyRole: true, allClinics: true } as const;
const YEAR_SECONDS = 365 * 24 * 3600;

const unreadable = () =>
  new AppError('VALIDATION', 'uploadUnreadable', {
    fields: { file: 'fileUnreadable' },
  });

/** Errors of the multipart reader: its own carry an HTTP status; the parser's plain ones are a broken body. */
function uploadError(error: unknown, maxBytes: number): AppError {
  const code = (error as { code?: string }).code;
  if (error instanceof AppError) return error;
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
    return new AppError('UNSUPPORTED_MEDIA_TYPE', 'multipartRequired', { fields: { file: 'fileRequired' } });
  }
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return new AppError('VALIDATION', 'fileLargerThan', {
      params: { megabytes: Math.round(maxBytes / 1024 / 1024) },
      fields: { file: 'fileTooLarge' },
    });
  }
  return unreadable();
}

/** A multipart body needs its boundary; without one the parser throws (it answered 500: issue #9). */
const hasBoundary = (contentType: string | undefined) => /;\s*boundary=(?:"[^"]+"|[^\s;"]+)/i.test(contentType ?? '');

/** Reads the one file part of a multipart upload, refusing more than the slot's limit. */
async function readUpload(request: FastifyRequest, maxBytes: number): Promise<files.UploadedFile> {
  if (request.isMultipart() && !hasBoundary(request.headers['content-type'])) throw unreadable();
  let part: Awaited<ReturnType<FastifyRequest['file']>>;
  let content: Buffer;
  try {
    part = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 4, parts: 5 } });
    if (!part) throw new AppError('VALIDATION', 'fileRequired', { fields: { file: 'fileRequired' } });
    content = await part.toBuffer();
  } catch (error) {
    throw uploadError(error, maxBytes);
  }
  const nameField = part.fields.fileName;
  const givenName = nameField && !Array.isArray(nameField) && nameField.type === 'field' ? String(nameField.value) : '';
  return { fileName: givenName || part.filename, declaredType: part.mimetype, content };
}

/** The security plugin marks every /api answer no-store; file answers put back their own caching. */
const fileCacheControl = new WeakMap<FastifyRequest, string>();
async function restoreCacheControl(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const cacheControl = fileCacheControl.get(request);
  if (cacheControl) reply.header('Cache-Control', cacheControl);
  return payload;
}

async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  served: files.ServedFile,
  cacheControl: string,
): Promise<FastifyReply> {
  reply.header('ETag', served.etag);
  fileCacheControl.set(request, cacheControl);
  if (request.headers['if-none-match'] === served.etag) return reply.status(304).send();
  const content = await served.load();
  reply.header('Content-Type', served.meta.contentType);
  reply.header('Content-Disposition', contentDisposition('inline', served.meta.fileName));
  // An SVG opened directly (not through <img>) must not run or fetch anything.
  if (served.meta.contentType === 'image/svg+xml') {
    reply.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox");
  }
  return reply.status(200).send(content);
}

export async function instanceSettingsRoutes(fastify: FastifyInstance) {
  // Registered here, not app-wide: only these routes accept multipart bodies.
  await fastify.register(multipart, { limits: { fileSize: AGREEMENT_MAX_BYTES, files: 1 } });
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/instancesettings', {
    config: manage,
    schema: {
      tags,
      summary: 'Fetch all settings, typed; secrets only as { isSet }, files as their details',
      response: { 200: instanceSettingsViewSchema, ...errors },
    },
    handler: async (request) => settings.fetchSettings(requireSignedIn(request.ctx)),
  });

  app.put('/api/instancesettings', {
    config: manage,
    schema: {
      tags,
      summary: 'Add or update settings, typed: any subset of keys; a blank secret keeps its value, null clears it',
      body: instanceSettingsUpdateSchema,
      response: { 200: instanceSettingsViewSchema, ...errors },
    },
    handler: async (request) => settings.saveSettings(requireSignedIn(request.ctx), request.body),
  });

  app.get('/api/instancesettings/configurationvalues', {
    config: manage,
    schema: {
      tags,
      summary: 'Fetch all settings in the wire format: ids and values in catalogue order (secrets blank)',
      response: { 200: configurationValuesViewSchema, ...errors },
    },
    handler: async (request) => settings.fetchConfigurationValues(requireSignedIn(request.ctx)),
  });

  app.post('/api/instancesettings/addorupdate', {
    config: manage,
    schema: {
      tags,
      summary:
        'Add or update all settings in the wire format: configurationValues in catalogue order, booleans as "true"/"false"',
      body: configurationValuesSchema,
      response: { 200: instanceSettingsViewSchema, ...errors },
    },
    handler: async (request) => settings.saveConfigurationValues(requireSignedIn(request.ctx), request.body.configurationValues),
  });

  // The daily cap per patient (decision 0066): Admins run the clinic's messaging, so they set it too.
  const messagingManagers = { roles: ['Admin', 'SystemManager'] as const };
  app.get('/api/instancesettings/dailycap', {
    config: messagingManagers,
    schema: {
      tags,
      summary: 'The daily cap of automatic messages per patient (empty: no limit)',
      response: { 200: dailyCapSchema, ...errors },
    },
    handler: async (request) => settings.readDailyCap(requireSignedIn(request.ctx)),
  });

  app.put('/api/instancesettings/dailycap', {
    config: messagingManagers,
    schema: {
      tags,
      summary: 'Set the daily cap of automatic messages per patient; later ones wait for the next clinic morning',
      body: dailyCapSchema,
      response: { 200: dailyCapSchema, ...errors },
    },
    handler: async (request) => settings.saveDailyCap(requireSignedIn(request.ctx), request.body),
  });

  app.get('/api/instancesettings/applicableforms', {
    config: { anyRole: true },
    schema: { tags, summary: 'Applicable forms of the clinic', response: { 200: applicableFormsSchema, ...errors } },
    handler: async (request) => settings.readApplicableForms(requireSignedIn(request.ctx)),
  });

  app.put('/api/instancesettings/applicableforms', {
    config: manage,
    schema: {
      tags,
      summary: 'Add or update applicable forms: a list of form ids (1–15 and custom form ids)',
      body: z.array(z.unknown()).max(200, 'tooLong'),
      response: { 200: applicableFormsSchema, ...errors },
    },
    handler: async (request) => settings.saveApplicableForms(requireSignedIn(request.ctx), request.body),
  });

  app.post('/api/instancesettings/files/:fileKey', {
    config: manage,
    schema: {
      tags,
      summary: 'Upload a logo (PNG, JPEG or SVG, ≤ 2 MB) or a new-patient agreement (PDF, ≤ 10 MB) as multipart "file"',
      consumes: ['multipart/form-data'],
      params: fileKeyParamsSchema,
      response: { 200: instanceFileSchema, ...errors },
    },
    handler: async (request) => {
      const ctx = requireSignedIn(request.ctx);
      const { fileKey } = request.params;
      if (!isFileKey(fileKey) || fileKindOf(fileKey) === 'privateKey') throw new AppError('NOT_FOUND', 'fileSlotNotFound');
      const upload = await readUpload(request, fileRules[fileKindOf(fileKey)].maxBytes);
      return files.uploadFile(ctx, fileKey, upload);
    },
  });

  app.delete('/api/instancesettings/files/:fileKey', {
    config: manage,
    schema: { tags, summary: 'Delete a logo or agreement', params: fileKeyParamsSchema, response: { 204: z.null(), ...errors } },
    handler: async (request, reply) => {
      await files.deleteFile(requireSignedIn(request.ctx), request.params.fileKey);
      return reply.status(204).send(null);
    },
  });

  app.get('/api/instancesettings/files/:fileKey', {
    config: { anyRole: true },
    schema: {
      tags,
      summary: "A logo or agreement of the acting clinic, for its signed-in users; another clinic's (instance=…) is 404",
      params: fileKeyParamsSchema,
      querystring: z.object({ instance: idSchema.optional() }),
    },
    onSend: restoreCacheControl,
    handler: async (request, reply) => {
      const served = await files.clinicFile(requireSignedIn(request.ctx), request.params.fileKey, request.query.instance);
      return sendFile(request, reply, served, 'private, no-cache');
    },
  });

  app.get('/api/instancesettings/logos/:instanceId/:fileKey', {
    config: { public: true },
    schema: {
      tags,
      summary: 'A clinic logo, public so that <img> can load it; cached for a year when the URL carries its version',
      params: z.object({ instanceId: idSchema, fileKey: fileKeyParamsSchema.shape.fileKey }),
      querystring: z.object({ v: z.string().max(64).optional() }),
    },
    onSend: restoreCacheControl,
    handler: async (request, reply) => {
      const clinic = await enterClinicOf(request.ctx, request.params.instanceId.toLowerCase());
      const served = await files.publicLogo(clinic.db, clinic.instanceId!, request.params.fileKey);
      // A URL naming the current version never changes content; any other is revalidated by ETag.
      const versioned = request.query.v !== undefined && `"${request.query.v}"` === served.etag;
      return sendFile(request, reply, served, versioned ? `public, max-age=${YEAR_SECONDS}, immutable` : 'public, no-cache');
    },
  });

  app.post('/api/instancesettings/privatekey', {
    config: manage,
    schema: {
      tags,
      summary: 'Upload the eClinicalWorks bulk private key (PEM or JWK) as multipart "file"; stored encrypted, never served',
      consumes: ['multipart/form-data'],
      response: { 200: instanceFileSchema, ...errors },
    },
    handler: async (request) => {
      const ctx = requireSignedIn(request.ctx);
      return files.uploadPrivateKey(ctx, await readUpload(request, fileRules.privateKey.maxBytes));
    },
  });

  app.delete('/api/instancesettings/privatekey', {
    config: manage,
    schema: { tags, summary: 'Delete the eClinicalWorks bulk private key', response: { 204: z.null(), ...errors } },
    handler: async (request, reply) => {
      await files.deletePrivateKey(requireSignedIn(request.ctx));
      return reply.status(204).send(null);
    },
  });

  app.get('/api/instancesettings/flags/:flag', {
    config: shellRead,
    schema: {
      tags,
      summary:
        'One feature flag: selfcheckin, athena, rpm, nevro, codepull, modmed, drchrono, mainstay, advancedmd, greenway, eclinicalworks, portalproclinic, campaignonly, bmifilter',
      params: settingFlagParamsSchema,
      response: { 200: settingFlagSchema, ...errors },
    },
    handler: async (request) => settings.readFlag(requireSignedIn(request.ctx), request.params.flag),
  });

  app.get('/api/instancesettings/extendedpatientquestions', {
    config: shellRead,
    schema: {
      tags,
      summary: 'Which extended patient questions the clinic asks',
      response: { 200: extendedPatientQuestionsSchema, ...errors },
    },
    handler: async (request) => settings.readExtendedPatientQuestions(requireSignedIn(request.ctx)),
  });

  app.get('/api/instancesettings/timezoneoffsethours', {
    config: shellRead,
    schema: { tags, summary: 'Time zone and its offset in hours', response: { 200: timeZoneOffsetSchema, ...errors } },
    handler: async (request) => settings.readTimeZoneOffset(requireSignedIn(request.ctx)),
  });

  app.get('/api/instancesettings/autologouttime', {
    config: shellRead,
    schema: { tags, summary: 'Idle minutes before sign-out', response: { 200: autoLogoutTimeSchema, ...errors } },
    handler: async (request) => settings.readAutoLogoutTime(requireSignedIn(request.ctx)),
  });

  app.get('/api/instancesettings/primarylogourl', {
    config: shellRead,
    schema: { tags, summary: 'URL of the primary clinic logo, or null', response: { 200: primaryLogoUrlSchema, ...errors } },
    handler: async (request) => settings.readPrimaryLogoUrl(requireSignedIn(request.ctx)),
  });
}
