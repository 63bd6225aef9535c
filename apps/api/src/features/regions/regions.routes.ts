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
import type { FastifyRequest } from 'fastify';
import {
  checkRegionOptionsHolder,
  readRegionOptionPermissions,
  readRegionOptions,
  type RegionOptionsHolder,
  updateRegionOptions,
} from './region-options.service.ts';
import { readRegion } from './region-read.service.ts';
import { PermissionFacts, requireActor, requireSession } from '../../plugins/caller.ts';
import { keepingKeys, withoutUnknownKeys } from '../../plugins/body-shape.ts';
import { platformValidatorCompiler } from '../../plugins/platform-wire-format.ts';
import { idFromPath, resourceProblems } from '../../plugins/platform-wire-format.ts';

const problems = resourceProblems;

const holders = new PermissionFacts<RegionOptionsHolder & { namesAnOption: boolean }>(
  'requireRegionOptionsHolder',
);

/**
 * preValidation: 404 for an unknown region, 403 unless the caller may set its options. The
 * keys of an option group the caller does not hold are then dropped from the body, never
 * refused: the platform's options page posts every key.
 */
async function requireRegionOptionsHolder(request: FastifyRequest): Promise<void> {
  const regionId = idFromPath(request, 'regionId');
  const holder = await checkRegionOptionsHolder(request.em, request.actor, regionId);
  let namesAnOption = false;
  request.body = keepingKeys(withoutUnknownKeys(RegionOptionsBodySchema, request.body), (key) => {
    namesAnOption = true;
    return holder.holdsKey(key);
  });
  holders.set(request, { ...holder, namesAnOption });
}
export const regionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/regions/:regionId',
    {
      onRequest: requireSession,
      preValidation: requireActor,
      schema: {
        tags: ['regions'],
        operationId: 'getRegion',
        summary: 'The administrative view of a region (orga only)',
        params: RegionIdParamsSchema,
        response: { 200: RegionSchema, ...problems },
      },
    },
    async (request) => readRegion(request.em, request.actor, idFromPath(request, 'regionId')),
  );

  app.get(
    '/region/:regionId/options',
    {
      onRequest: requireSession,
      preValidation: requireActor,
      schema: {
        tags: ['regions'],
        operationId: 'getRegionOptions',
        summary: 'All options of a region, defaults filled in',
        params: RegionOptionsParamsSchema,
        response: { 200: RegionOptionsReadSchema, ...problems },
      },
    },
    async (request) => {
      return readRegionOptions(request.em, request.actor, idFromPath(request, 'regionId'));
    },
  );

  app.get(
    '/region/:regionId/options/permissions',
    {
      onRequest: requireSession,
      preValidation: requireActor,
      schema: {
        tags: ['regions'],
        operationId: 'getRegionOptionPermissions',
        summary: "Which of a region's option groups the caller may set",
        params: RegionOptionsParamsSchema,
        response: { 200: RegionOptionPermissionsSchema, ...problems },
      },
    },
    async (request) => {
      const regionId = idFromPath(request, 'regionId');
      return readRegionOptionPermissions(request.em, request.actor, regionId);
    },
  );

  app.post(
    '/region/:regionId/options',
    {
      onRequest: requireSession,
      preValidation: [requireActor, requireRegionOptionsHolder],
      // docs/domain.md §3.15: booleans also arrive as 0/1, numbers as numeric strings.
      validatorCompiler: platformValidatorCompiler({ textScalars: true }),
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
    async (request) => {
      const { namesAnOption, ...holder } = holders.of(request);
      return updateRegionOptions(request.em, holder, request.body, namesAnOption);
    },
  );
};
