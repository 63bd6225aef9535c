import {
  ProblemSchema,
  RegionIdParamsSchema,
  RegionOptionsBodySchema,
  RegionOptionPermissionsSchema,
  RegionOptionsParamsSchema,
  RegionOptionsReadSchema,
  RegionOptionsSchema,
  RegionSchema,
} from '@foodshare/schemas';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { plainIntegerParams } from '../../shared/plain-integer-params.ts';
import {
  readRegionOptionPermissions,
  readRegionOptions,
  updateRegionOptions,
} from './region-options.service.ts';
import { readRegion } from './region-read.service.ts';
import { callerOf } from '../../shared/as-actor.ts';
import { idFromPathAsActor, resourceProblems } from '../../shared/path-ids.ts';
import { bodyOf } from '../../plugins/wire-conventions.ts';

const problems = resourceProblems;
export const regionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/regions/:regionId',
    {
      schema: {
        tags: ['regions'],
        operationId: 'getRegion',
        summary: 'The administrative view of a region (orga only)',
        params: RegionIdParamsSchema,
        response: { 200: RegionSchema, ...problems },
      },
    },
    // The caller's account is read in the region's own query (shared/as-actor.ts).
    async (request) => {
      const caller = callerOf(request);
      const regionId = await idFromPathAsActor(request, request.params.regionId);
      return readRegion(request.em, caller, regionId);
    },
  );

  app.get(
    '/region/:regionId/options',
    {
      preValidation: plainIntegerParams('regionId'),
      schema: {
        tags: ['regions'],
        operationId: 'getRegionOptions',
        summary: 'All options of a region, defaults filled in',
        params: RegionOptionsParamsSchema,
        response: { 200: RegionOptionsReadSchema, ...problems },
      },
    },
    // The caller's account is read in the query of the region's facts (shared/as-actor.ts).
    async (request) => {
      return readRegionOptions(request.em, callerOf(request), request.params.regionId);
    },
  );

  app.get(
    '/region/:regionId/options/permissions',
    {
      preValidation: plainIntegerParams('regionId'),
      schema: {
        tags: ['regions'],
        operationId: 'getRegionOptionPermissions',
        summary: "Which of a region's option groups the caller may set",
        params: RegionOptionsParamsSchema,
        response: { 200: RegionOptionPermissionsSchema, ...problems },
      },
    },
    // The caller's account is read in the query of the region's facts (shared/as-actor.ts).
    async (request) => {
      return readRegionOptionPermissions(request.em, callerOf(request), request.params.regionId);
    },
  );

  app.post(
    '/region/:regionId/options',
    {
      preValidation: plainIntegerParams('regionId'),
      // docs/domain.md §3.15: booleans also arrive as 0/1, numbers as numeric strings.
      config: { textScalars: true },
      schema: {
        tags: ['regions'],
        operationId: 'setRegionOptions',
        summary: 'Set options of a region; returns all of them',
        description:
          'As the platform reads them, JSON bodies too may give booleans as 0/1 or "true"/"false" ' +
          'and numbers as numeric strings (the options page sends its form fields as text).',
        params: RegionOptionsParamsSchema,
        body: RegionOptionsBodySchema,
        response: { 200: RegionOptionsSchema, 400: ProblemSchema, ...problems },
      },
    },
    // The caller's account is read in the query of the region's facts (shared/as-actor.ts).
    async (request) => {
      return updateRegionOptions(
        request.em,
        callerOf(request),
        request.params.regionId,
        bodyOf(request),
      );
    },
  );
};
