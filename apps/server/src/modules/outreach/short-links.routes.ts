import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { open } from '../patient-contact/link-requests.service';
import { recordClick } from './campaign-responses';

const notFoundPage =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Link not found</title></head><body>' +
  '<p>This link is not valid. Please contact the clinic.</p>' +
  '<p lang="es">Este enlace no es válido. Póngase en contacto con la clínica.</p></body></html>';

/**
 * A campaign's short link (issue #15 §3, the spec's open shortened-link route, decision 0051): counts the
 * click and sends the browser on to the campaign's page. Open and rate limited per address like the
 * patient links; the code names the clinic, so it is looked up across clinics.
 */
export async function shortLinkRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/l/:code', {
    config: open(60),
    schema: {
      tags: ['Campaigns'],
      summary: "A campaign's short link: records the click and redirects (302) to the campaign's link",
      params: z.object({ code: z.string().max(64) }),
      response: { 302: z.null(), 404: z.string(), 429: z.unknown() },
    },
    handler: async (request, reply) => {
      const target = await recordClick(request.ctx.db, request.params.code);
      if (!target) return reply.status(404).type('text/html; charset=utf-8').send(notFoundPage);
      return reply.header('Cache-Control', 'no-store').redirect(target, 302);
    },
  });
}
