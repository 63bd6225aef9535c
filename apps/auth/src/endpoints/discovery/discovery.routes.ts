import type { AuthServices } from '../../auth-services.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { providerMetadata, ProviderMetadataSchema } from './provider-metadata.ts';
import { allowAnyOrigin } from '../../clients/allow-any-origin.ts';

// Short: clients re-read it now and then, and it only changes with a deployment.
const CACHE_CONTROL = 'public, max-age=300';

export const discoveryRoutes: FastifyPluginAsyncTypebox<AuthServices> = async (app, services) => {
  allowAnyOrigin(app);
  const metadata = providerMetadata(services.issuer);
  const schema = { tags: ['discovery'], response: { 200: ProviderMetadataSchema } };
  // OpenID Connect Discovery 1.0 section 4 and RFC 8414 section 3: the same document.
  for (const url of [
    '/.well-known/openid-configuration',
    '/.well-known/oauth-authorization-server',
  ]) {
    app.get(url, { schema }, async (_request, reply) => {
      reply.header('cache-control', CACHE_CONTROL);
      return metadata;
    });
  }
};
