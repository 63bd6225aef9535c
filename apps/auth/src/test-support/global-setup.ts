import { migrateDatabase } from '@foodshare/domain';
import { setupTemplateDatabase } from '@foodshare/testing';

export default () => setupTemplateDatabase({ name: 'auth', migrate: migrateDatabase });
