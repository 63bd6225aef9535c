import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { html } from '../pages/html.ts';
import { ADMIN_BASE_PATH, adminPaths, notice, sendAdminPage } from './admin.page.ts';
import { localeOf, NoticeQuerySchema } from './admin-request.ts';
import { auditRegionIds, auditTable } from './audit-log.page.ts';
import { clientListBody } from './client-list.page.ts';
import { listAuditEntries, listClients, regionNames } from './oauth-clients-admin.service.ts';

const GLOBAL_AUDIT_LIMIT = 200;

/** The list of clients and the audit log of every change. */
export const clientListRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    ADMIN_BASE_PATH,
    { schema: { querystring: NoticeQuerySchema } },
    async (request, reply) => {
      const { locale, texts } = localeOf(request);
      const clients = await listClients(request.em);
      return sendAdminPage(reply, {
        locale,
        title: texts.title,
        body: html`${notice(texts, request.query.done)}
          <p><a href="${adminPaths.newClient}">${texts.newClient}</a></p>
          ${clientListBody(locale, texts, clients)}`,
      });
    },
  );

  app.get(adminPaths.audit, async (request, reply) => {
    const { locale, texts } = localeOf(request);
    const entries = await listAuditEntries(request.em, { limit: GLOBAL_AUDIT_LIMIT });
    const names = await regionNames(request.em, auditRegionIds(entries));
    return sendAdminPage(reply, {
      locale,
      title: texts.audit.title,
      body: auditTable(locale, texts, entries, names, true),
    });
  });
};
