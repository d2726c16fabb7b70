import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  ENCOUNTER_IMPORT_MAX_BYTES,
  encounterImportDetailSchema,
  encounterImportListSchema,
  encounterImportStartedSchema,
  encounterPreviewSchema,
} from '@pathwell/contracts/encounter-imports';
import { idSchema } from '@pathwell/contracts/validation';
import { requireSignedIn } from '../../context';
import { AppError } from '../../lib/app-error';
import * as service from './encounter-imports.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  415: errorBodySchema,
};
const unreadable = () => new AppError('VALIDATION', 'uploadUnreadable', { fields: { file: 'fileUnreadable' } });
/** A multipart body needs its boundary; without one the parser throws (as in instance-settings.routes.ts). */
const hasBoundary = (contentType: string | undefined) => /;\s*boundary=(?:"[^"]+"|[^\s;"]+)/i.test(contentType ?? '');

function uploadError(error: unknown): AppError {
  const code = (error as { code?: string }).code;
  if (error instanceof AppError) return error;
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
    return new AppError('UNSUPPORTED_MEDIA_TYPE', 'multipartRequired', { fields: { file: 'fileRequired' } });
  }
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return new AppError('VALIDATION', 'fileLargerThan', {
      params: { megabytes: Math.round(ENCOUNTER_IMPORT_MAX_BYTES / 1024 / 1024) },
      fields: { file: 'fileTooLarge' },
    });
  }
  return unreadable();
}

/** The `file` part (at most 20 MB) and the `mapping` field, in whichever order the client sent them. */
async function readUpload(request: FastifyRequest): Promise<service.EncounterUpload & { mapping?: string }> {
  if (request.isMultipart() && !hasBoundary(request.headers['content-type'])) throw unreadable();
  let upload: service.EncounterUpload | null = null;
  let mapping: string | undefined;
  try {
    const parts = request.parts({
      limits: { fileSize: ENCOUNTER_IMPORT_MAX_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 16_384 },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        const content = await part.toBuffer();
        if (part.fieldname === 'file') upload = { fileName: part.filename, content };
      } else if (part.fieldname === 'mapping') {
        mapping = String(part.value);
      }
    }
  } catch (error) {
    throw uploadError(error);
  }
  if (!upload) throw new AppError('VALIDATION', 'fileRequired', { fields: { file: 'fileRequired' } });
  return { ...upload, mapping };
}

/**
 * The encounter CSV import (issue #15 §1, decision 0050): System Manager and Admin, in clinics that use
 * code pulls or campaigns. The import itself runs as the `encounter-import` job.
 */
export async function encounterImportRoutes(fastify: FastifyInstance) {
  // Registered here, not app-wide: only these routes (and instance settings') accept multipart bodies.
  await fastify.register(multipart, { limits: { fileSize: ENCOUNTER_IMPORT_MAX_BYTES, files: 1 } });
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Code pulls'];
  const config = { menuPath: '/patientcampaigns/dashboard' };

  app.post('/api/encounterimports/preview', {
    config,
    schema: {
      tags,
      summary:
        'Read an encounter CSV (multipart "file", ≤ 20 MB): its headers, first 20 rows, row count and a suggested column mapping',
      consumes: ['multipart/form-data'],
      response: { 200: encounterPreviewSchema, ...errors },
    },
    handler: async (request) => service.previewEncounters(requireSignedIn(request.ctx), () => readUpload(request)),
  });

  app.post('/api/encounterimports', {
    config,
    schema: {
      tags,
      summary:
        'Start importing an encounter CSV (multipart "file" and "mapping", the column of each field as JSON); answers the import id at once',
      consumes: ['multipart/form-data'],
      response: { 202: encounterImportStartedSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(202).send(await service.startEncounterImport(requireSignedIn(request.ctx), () => readUpload(request))),
  });

  app.get('/api/encounterimports', {
    config,
    schema: {
      tags,
      summary: 'The import log, newest first (the last 100)',
      response: { 200: encounterImportListSchema, ...errors },
    },
    handler: async (request) => service.listEncounterImports(requireSignedIn(request.ctx)),
  });

  app.get('/api/encounterimports/:id', {
    config,
    schema: {
      tags,
      summary: "One import's progress, counts and first 500 row errors",
      params: z.object({ id: idSchema }),
      response: { 200: encounterImportDetailSchema, ...errors },
    },
    handler: async (request) => service.getEncounterImport(requireSignedIn(request.ctx), request.params.id),
  });
}
