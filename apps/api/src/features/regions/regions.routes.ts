import {
  ProblemSchema,
  parseIdParam,
  RegionIdParamsSchema,
  RegionOptionsBodySchema,
  RegionOptionsParamsSchema,
  RegionOptionsSchema,
  RegionSchema,
  DIGITS_PATTERN,
} from '@foodshare/schemas';
import { mayReadRegionAdminView } from '@foodshare/domain';
import { Problem, requireActor } from '@foodshare/server-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { readRegionOptions, updateRegionOptions } from './region-options.service.ts';
import { readRegion } from './region-read.service.ts';

const problems = { 401: ProblemSchema, 403: ProblemSchema, 404: ProblemSchema };
const digits = new RegExp(DIGITS_PATTERN);

/**
 * SPEC.md types this region id as an integer of pattern `\d+`. The params schema converts
 * before it checks, and would take `1.5`, `1e3` or ` 1` for a number; the raw segment must be
 * digits, or the URL names no region (404, DESIGN.md 3).
 */
async function requireDigitRegionId(request: FastifyRequest): Promise<void> {
  const { regionId } = request.params as { regionId?: unknown };
  if (typeof regionId !== 'string' || !digits.test(regionId)) throw Problem.notFound();
}

export const regionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/regions/:regionId',
    {
      schema: {
        tags: ['regions'],
        summary: 'The administrative view of a region (orga only)',
        params: RegionIdParamsSchema,
        response: { 200: RegionSchema, ...problems },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      if (!mayReadRegionAdminView(actor)) {
        throw Problem.forbidden('REGION_ADMIN_VIEW_FORBIDDEN', 'Only orga reads this view.');
      }
      const regionId = parseIdParam(request.params.regionId);
      if (regionId === undefined) throw Problem.notFound();
      return readRegion(request.em, regionId);
    },
  );

  app.get(
    '/region/:regionId/options',
    {
      preValidation: requireDigitRegionId,
      schema: {
        tags: ['regions'],
        summary: 'All options of a region, defaults filled in',
        params: RegionOptionsParamsSchema,
        response: { 200: RegionOptionsSchema, ...problems },
      },
    },
    async (request) =>
      readRegionOptions(request.em, await requireActor(request), request.params.regionId),
  );

  app.post(
    '/region/:regionId/options',
    {
      preValidation: requireDigitRegionId,
      schema: {
        tags: ['regions'],
        summary: 'Set options of a region; returns all of them',
        params: RegionOptionsParamsSchema,
        body: RegionOptionsBodySchema,
        response: { 200: RegionOptionsSchema, 400: ProblemSchema, ...problems },
      },
    },
    async (request) =>
      updateRegionOptions(
        request.em,
        await requireActor(request),
        request.params.regionId,
        request.body,
      ),
  );
};
