import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@pathwell/contracts/errors';
import {
  managedItemInputSchema,
  managedItemInputSchemaFor,
  managedItemListQuerySchema,
  managedItemPageSchema,
  managedItemSchema,
  managedListFamilies,
  type ManagedListDefinition,
  type ManagedListFamily,
} from '@pathwell/contracts/managed-lists';
import { menuAccessFor } from '@pathwell/contracts/menu';
import { idSchema } from '@pathwell/contracts/validation';
import { requireSignedIn } from '../../context';
import * as lists from './managed-lists.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const idParams = z.object({ id: idSchema });

/**
 * Writes are guarded by the access list of the list's admin page in the side menu. A family (one API
 * path for several lists) shares one route, so its lists must share that access list.
 */
function writeMenuPathOf(family: ManagedListFamily): string {
  const [first, ...others] = family.lists;
  if (!first) throw new Error(`${family.apiPath} has no list`);
  const access = (path: string) => {
    const roles = menuAccessFor(path);
    if (!roles) throw new Error(`No menu item has the path ${path}`);
    return [...roles].sort().join(',');
  };
  const expected = access(first.menuPath);
  for (const list of others) {
    if (access(list.menuPath) !== expected) throw new Error(`${family.apiPath} mixes lists with different write access`);
  }
  return first.menuPath;
}

/** One set of CRUD routes per family of the catalogue: `GET`, `GET {id}`, `POST`, `PUT {id}`, `DELETE {id}`. */
function registerFamily(fastify: FastifyInstance, family: ManagedListFamily) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const param = family.variantParam;
  const values = family.lists.map((list) => list.variant?.value ?? '');
  const variantShape = param ? { [param]: z.enum(values as [string, ...string[]], { error: 'invalid' }) } : {};
  const variantQuery = z.object(variantShape);
  const only = family.lists.length === 1 ? family.lists[0] : undefined;
  // A single list documents its own fields; a family's body is checked against the chosen list in the service.
  const body = only ? managedItemInputSchemaFor(only) : managedItemInputSchema;
  const menuPath = writeMenuPathOf(family);
  const name = family.apiPath.replace('/api/', '');
  const tags = ['Managed lists'];
  const listFor = (query: Record<string, unknown>): ManagedListDefinition =>
    only ?? family.lists.find((list) => param && list.variant?.value === query[param])!;
  const variantHelp = param ? ` (choose the list with ?${param}=${values.join('|')})` : '';

  app.get(family.apiPath, {
    config: { anyRole: true },
    schema: {
      tags,
      summary: `List ${name}${variantHelp}: search by name, sort, active filter, paged`,
      querystring: managedItemListQuerySchema.extend(variantShape),
      response: { 200: managedItemPageSchema, ...errors },
    },
    handler: async (request) => {
      const query = request.query as z.output<typeof managedItemListQuerySchema> & Record<string, unknown>;
      return lists.listItems(requireSignedIn(request.ctx), listFor(query), query);
    },
  });

  app.get(`${family.apiPath}/:id`, {
    config: { anyRole: true },
    schema: { tags, summary: `One ${name} entry`, params: idParams, response: { 200: managedItemSchema, ...errors } },
    handler: async (request) => lists.getItem(requireSignedIn(request.ctx), family, request.params.id),
  });

  app.post(family.apiPath, {
    config: { menuPath },
    schema: {
      tags,
      summary: `Add a ${name} entry${variantHelp}`,
      querystring: variantQuery,
      body,
      response: { 201: managedItemSchema, 409: errorBodySchema, ...errors },
    },
    handler: async (request, reply) => {
      const input = request.body as z.output<typeof managedItemInputSchema>;
      const created = await lists.createItem(
        requireSignedIn(request.ctx),
        listFor(request.query as Record<string, unknown>),
        input,
      );
      return reply.status(201).send(created);
    },
  });

  app.put(`${family.apiPath}/:id`, {
    config: { menuPath },
    schema: {
      tags,
      summary: `Update a ${name} entry`,
      params: idParams,
      body,
      response: { 200: managedItemSchema, 409: errorBodySchema, ...errors },
    },
    handler: async (request) =>
      lists.updateItem(
        requireSignedIn(request.ctx),
        family,
        request.params.id,
        request.body as z.output<typeof managedItemInputSchema>,
      ),
  });

  app.delete(`${family.apiPath}/:id`, {
    config: { menuPath },
    schema: { tags, summary: `Delete a ${name} entry (soft)`, params: idParams, response: { 204: z.null(), ...errors } },
    handler: async (request, reply) => {
      await lists.deleteItem(requireSignedIn(request.ctx), family, request.params.id);
      return reply.status(204).send(null);
    },
  });
}

export async function managedListRoutes(app: FastifyInstance) {
  for (const family of managedListFamilies) registerFamily(app, family);
}
