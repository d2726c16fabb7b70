import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import { ADMIN_GROUP_MENU_PATH } from '@pathwell/contracts/managed-lists';
import {
  createProcedureNoteSchema,
  procedureNoteListSchema,
  procedureNoteSchema,
  procedureNoteTemplateInputSchema,
  procedureNoteTemplateSchema,
  updateProcedureNoteSchema,
} from '@pathwell/contracts/procedure-notes';
import type { Role } from '@pathwell/contracts/roles';
import { idSchema } from '@pathwell/contracts/validation';
import { contentDisposition } from '../../lib/content-disposition';
import { requireSignedIn } from '../../context';
import * as templates from './procedure-note-templates.service';
import * as notes from './procedure-notes.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
const staffRoles: readonly Role[] = ['Admin', 'Doctor', 'Staff', 'SystemManager'];
const idParams = z.object({ id: idSchema });

/**
 * Procedure notes (issue #13, decision 0040). Templates: every role reads, the Admin group writes.
 * Notes: any staff member of the clinic (a Doctor only for their own patients) drafts and edits; only
 * the provider named on the note signs it.
 */
export async function procedureNoteRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const templateTags = ['Procedure note templates'];
  const tags = ['Procedure notes'];
  const write = { menuPath: ADMIN_GROUP_MENU_PATH };
  const staff = { roles: staffRoles };

  app.get('/api/procedurenotetemplates', {
    config: { anyRole: true },
    schema: {
      tags: templateTags,
      summary: "The clinic's procedure note templates",
      response: { 200: z.array(procedureNoteTemplateSchema), ...errors },
    },
    handler: async (request) => templates.listTemplates(requireSignedIn(request.ctx)),
  });

  app.post('/api/procedurenotetemplates', {
    config: write,
    schema: {
      tags: templateTags,
      summary: 'Add a template; its {{placeholders}} must be from the catalogue',
      body: procedureNoteTemplateInputSchema,
      response: { 201: procedureNoteTemplateSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await templates.createTemplate(requireSignedIn(request.ctx), request.body)),
  });

  app.put('/api/procedurenotetemplates/:id', {
    config: write,
    schema: {
      tags: templateTags,
      summary: 'Update a template',
      params: idParams,
      body: procedureNoteTemplateInputSchema,
      response: { 200: procedureNoteTemplateSchema, ...errors },
    },
    handler: async (request) => templates.updateTemplate(requireSignedIn(request.ctx), request.params.id, request.body),
  });

  app.delete('/api/procedurenotetemplates/:id', {
    config: write,
    schema: { tags: templateTags, summary: 'Delete a template (soft)', params: idParams, response: { 204: z.null(), ...errors } },
    handler: async (request, reply) => {
      await templates.deleteTemplate(requireSignedIn(request.ctx), request.params.id);
      return reply.status(204).send(null);
    },
  });

  app.post('/api/procedurenotes', {
    config: staff,
    schema: {
      tags,
      summary:
        "Open an intervention's note: the latest version (200), or a new draft filled from the template (201): the item's own, else the kind's, else a built-in default",
      body: createProcedureNoteSchema,
      response: { 200: procedureNoteSchema, 201: procedureNoteSchema, ...errors },
    },
    handler: async (request, reply) => {
      const { created, note } = await notes.openNote(requireSignedIn(request.ctx), request.body);
      return reply.status(created ? 201 : 200).send(note);
    },
  });

  app.get('/api/procedurenotes/todo', {
    config: staff,
    schema: {
      tags,
      summary: "Unsigned drafts: a Doctor's own; every draft of the clinic for Admin, Staff and System Manager",
      response: { 200: procedureNoteListSchema, ...errors },
    },
    handler: async (request) => notes.todoNotes(requireSignedIn(request.ctx)),
  });

  app.get('/api/procedurenotes/:id', {
    config: staff,
    schema: {
      tags,
      summary: 'One version of a note with the version history',
      params: idParams,
      response: { 200: procedureNoteSchema, ...errors },
    },
    handler: async (request) => notes.getNote(requireSignedIn(request.ctx), request.params.id),
  });

  app.put('/api/procedurenotes/:id', {
    config: staff,
    schema: {
      tags,
      summary: "Edit a draft's text (409 once signed)",
      params: idParams,
      body: updateProcedureNoteSchema,
      response: { 200: procedureNoteSchema, ...errors },
    },
    handler: async (request) => notes.updateNote(requireSignedIn(request.ctx), request.params.id, request.body),
  });

  app.post('/api/procedurenotes/:id/sign', {
    config: staff,
    schema: {
      tags,
      summary: 'Sign a draft (only the provider named on the note); an amended version it replaces becomes superseded',
      params: idParams,
      response: { 200: procedureNoteSchema, ...errors },
    },
    handler: async (request) => notes.signNote(requireSignedIn(request.ctx), request.params.id),
  });

  app.post('/api/procedurenotes/:id/amend', {
    config: staff,
    schema: {
      tags,
      summary: 'Start an amendment: a new draft version copied from the latest signed one',
      params: idParams,
      response: { 201: procedureNoteSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await notes.amendNote(requireSignedIn(request.ctx), request.params.id)),
  });

  app.get('/api/procedurenotes/:id/pdf', {
    config: staff,
    schema: {
      tags,
      summary: 'A signed (or superseded) version as PDF',
      params: idParams,
      response: { 200: z.any(), ...errors },
    },
    handler: async (request, reply) => {
      const { pdf, fileName } = await notes.notePdf(requireSignedIn(request.ctx), request.params.id);
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', contentDisposition('inline', fileName))
        .header('Cache-Control', 'no-store')
        .send(pdf);
    },
  });

  app.get('/api/patients/:id/procedurenotes', {
    config: staff,
    schema: {
      tags,
      summary: "The patient's procedure notes: the latest version per intervention, with its status",
      params: idParams,
      response: { 200: procedureNoteListSchema, ...errors },
    },
    handler: async (request) => notes.patientNotes(requireSignedIn(request.ctx), request.params.id),
  });
}
