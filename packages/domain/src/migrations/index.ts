import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000_initial } from './Migration20261122000000_initial.ts';
import { Migration20261122060000_user_tokens_valid_after } from './Migration20261122060000_user_tokens_valid_after.ts';
import { Migration20261122120000_resources_per_owner_limit } from './Migration20261122120000_resources_per_owner_limit.ts';
import { Migration20261125000000_newest_first_page_indexes } from './Migration20261125000000_newest_first_page_indexes.ts';
import { Migration20261125060000_report_translation_keys } from './Migration20261125060000_report_translation_keys.ts';
import { Migration20261125061000_oauth_revocations } from './Migration20261125061000_oauth_revocations.ts';
import { Migration20261125120000_conversation_last_message_at } from './Migration20261125120000_conversation_last_message_at.ts';
import { Migration20261125180000_oauth_post_logout_redirect_uris } from './Migration20261125180000_oauth_post_logout_redirect_uris.ts';
import { Migration20261126090000_page_order_indexes } from './Migration20261126090000_page_order_indexes.ts';
import { Migration20261126091000_search_index_versions } from './Migration20261126091000_search_index_versions.ts';
import { Migration20261126100000_oauth_par_and_backchannel_logout } from './Migration20261126100000_oauth_par_and_backchannel_logout.ts';
import { Migration20261127150000_oauth_client_display_uris } from './Migration20261127150000_oauth_client_display_uris.ts';
import { Migration20261127220000_oauth_client_require_dpop } from './Migration20261127220000_oauth_client_require_dpop.ts';
import { Migration20261128000000_oauth_client_api_scope } from './Migration20261128000000_oauth_client_api_scope.ts';
import { Migration20261128010000_oauth_device_code_grant } from './Migration20261128010000_oauth_device_code_grant.ts';
import { Migration20261128020000_oauth_client_checks_validated } from './Migration20261128020000_oauth_client_checks_validated.ts';

/** Every migration in order. Named explicitly so that a renamed or minified class keeps its history row. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261122000000_initial', class: Migration20261122000000_initial },
  {
    name: 'Migration20261122060000_user_tokens_valid_after',
    class: Migration20261122060000_user_tokens_valid_after,
  },
  {
    name: 'Migration20261122120000_resources_per_owner_limit',
    class: Migration20261122120000_resources_per_owner_limit,
  },
  {
    name: 'Migration20261125000000_newest_first_page_indexes',
    class: Migration20261125000000_newest_first_page_indexes,
  },
  {
    name: 'Migration20261125060000_report_translation_keys',
    class: Migration20261125060000_report_translation_keys,
  },
  {
    name: 'Migration20261125061000_oauth_revocations',
    class: Migration20261125061000_oauth_revocations,
  },
  {
    name: 'Migration20261125120000_conversation_last_message_at',
    class: Migration20261125120000_conversation_last_message_at,
  },
  {
    name: 'Migration20261125180000_oauth_post_logout_redirect_uris',
    class: Migration20261125180000_oauth_post_logout_redirect_uris,
  },
  {
    name: 'Migration20261126090000_page_order_indexes',
    class: Migration20261126090000_page_order_indexes,
  },
  {
    name: 'Migration20261126091000_search_index_versions',
    class: Migration20261126091000_search_index_versions,
  },
  {
    name: 'Migration20261126100000_oauth_par_and_backchannel_logout',
    class: Migration20261126100000_oauth_par_and_backchannel_logout,
  },
  {
    name: 'Migration20261127150000_oauth_client_display_uris',
    class: Migration20261127150000_oauth_client_display_uris,
  },
  {
    name: 'Migration20261127220000_oauth_client_require_dpop',
    class: Migration20261127220000_oauth_client_require_dpop,
  },
  {
    name: 'Migration20261128000000_oauth_client_api_scope',
    class: Migration20261128000000_oauth_client_api_scope,
  },
  {
    name: 'Migration20261128010000_oauth_device_code_grant',
    class: Migration20261128010000_oauth_device_code_grant,
  },
  {
    name: 'Migration20261128020000_oauth_client_checks_validated',
    class: Migration20261128020000_oauth_client_checks_validated,
  },
];
